// The reference the index path is measured against (agreement tests, bench:recall):
// recall's formula over every row of the persona, no candidates.
import type { RecallHit } from '../../shared/api';
import type { CoreContext } from '../context';
import { recall, type RecallArgs } from '../recall/recall';

export function exactRecall(ctx: CoreContext, a: RecallArgs): Promise<RecallHit[]> {
  return recall(ctx, a, 'exact');
}
