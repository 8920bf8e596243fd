import type { UserModelEntry } from '../../shared/api';
import type { Queryable } from '../db/client';
import { oneLine } from '../memories/top';
import { listUserModel } from './store';

export const USER_MODEL_HEADER = '## User model (call `user_model_write` to update a dimension)';

/** docs/memory-model.md: the header, then `- [dimension, conf=N] content`, in listUserModel's stable order. */
export function renderUserModelBlock(entries: readonly Pick<UserModelEntry, 'dimension' | 'confidence' | 'content'>[]): string {
  return [USER_MODEL_HEADER, ...entries.map((e) => `- [${e.dimension}, conf=${e.confidence}] ${oneLine(e.content)}`)].join('\n');
}

export async function userModelBlock(db: Queryable, persona: string): Promise<string> {
  return renderUserModelBlock(await listUserModel(db, persona));
}
