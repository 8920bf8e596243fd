// A PGlite instance seen through the app's Queryable (plus transaction), for
// tests that run PGlite in their own process instead of the database worker.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Queryable } from '../db/client';
import type { DbQueryResult } from '../db/protocol';

function wrap(q: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<DbQueryResult<T>> {
      const r = await q.query<T>(sql, params);
      return { rows: r.rows, affectedRows: r.affectedRows ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await q.exec(sql);
    },
  };
}

export function pgliteQueryable(pg: PGlite): Queryable & {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
} {
  return { ...wrap(pg), transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))) };
}
