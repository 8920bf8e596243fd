import type { Queryable } from '../db/client';
import { readExtraSetting, writeExtraSetting } from '../settings/extra';

// The desktop app's "let AI tools connect" switch, kept in the settings table
// under a key of its own (the settings module reads only the keys it knows).
const KEY = 'mcpListener';

export async function readListenerSetting(db: Queryable): Promise<boolean> {
  return (await readExtraSetting(db, KEY)) === true;
}

export async function writeListenerSetting(db: Queryable, enabled: boolean): Promise<void> {
  await writeExtraSetting(db, KEY, enabled);
}
