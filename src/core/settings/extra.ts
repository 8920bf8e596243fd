// Values another domain keeps in the settings table under a key of its own, outside `Settings`
// (readSettings reads only the keys it knows): the table is still written only here.
import type { Queryable } from '../db/client';

/** The stored JSON value of `key`, or undefined when none is stored. */
export async function readExtraSetting(db: Queryable, key: string): Promise<unknown> {
  const { rows } = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function writeExtraSetting(db: Queryable, key: string, value: unknown): Promise<void> {
  await db.query(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
    key,
    JSON.stringify(value),
  ]);
}
