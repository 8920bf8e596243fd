// The last step of a compaction: mark the planned messages folded and store
// the new rolling summary, together. Several Hearths may share one server
// (docs/server-mode.md), so two compactions of one conversation can run at
// once; each one's summary is built on the summary it read when it started.
import { replaceSummary } from '../../conversations/turn-state';
import type { Queryable } from '../../db/client';
import { markFolded } from '../messages';

/**
 * Folds `ids` and stores `summary` in one transaction, only if the conversation's summary is still
 * `previous` and every message is still unfolded; otherwise changes nothing and returns 0.
 */
export async function commitFold(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  conversationId: string,
  ids: string[],
  previous: string,
  summary: string,
): Promise<number> {
  return db
    .transaction(async (tx) => {
      // Compare and set, first: the row lock queues a second fold of this conversation behind this one, which
      // then finds the summary changed and folds nothing. Without it, a fold that read the summary before
      // another one's commit would overwrite that one's part of it (src/core/chat/compaction/fold.test.ts).
      if (!(await replaceSummary(tx, conversationId, summary, previous))) throw new FoldRaceError();
      const n = await markFolded(tx, conversationId, ids);
      // A /clear while we summarised removed these messages: fold nothing into a fresh conversation.
      if (n !== ids.length) throw new FoldRaceError();
      return n;
    })
    .catch((e: unknown) => {
      if (e instanceof FoldRaceError) return 0;
      throw e;
    });
}

class FoldRaceError extends Error {}
