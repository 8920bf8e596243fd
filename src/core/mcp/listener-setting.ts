import type { Queryable } from '../db/client';

// The desktop app's "let AI tools connect" switch, kept in the settings table
// under a key of its own (the settings module reads only the keys it knows).
const KEY = 'mcpListener';

export async function readListenerSetting(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [KEY]);
  return rows[0]?.value === true;
}

export async function writeListenerSetting(db: Queryable, enabled: boolean): Promise<void> {
  await db.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [KEY, JSON.stringify(enabled)],
  );
}
