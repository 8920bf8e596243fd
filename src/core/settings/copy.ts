import type { Queryable } from '../db/client';

/**
 * Copies the settings of one database (models, budgets…) into another that
 * has none of them yet (server-switch/copy.ts): a key it already holds keeps
 * its value. Keys stay in the secret store.
 */
export async function copySettings(from: Queryable, to: Queryable): Promise<void> {
  const { rows } = await from.query<{ key: string; value: unknown }>('SELECT key, value FROM settings ORDER BY key');
  for (const r of rows) {
    await to.query('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [r.key, JSON.stringify(r.value)]);
  }
}
