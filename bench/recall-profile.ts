// Where one recall's time goes: every statement it sends, timed on the core
// thread (round trip to the database worker included) and inside the database
// worker (dbP50: parse, plan, run, rows read into JS), grouped by kind; and
// EXPLAIN ANALYZE of each SELECT of one query. For `bench/recall.ts --profile`.
import type { CoreContext } from '../src/core/context';
import { recall, type RecallArgs } from '../src/core/recall/recall';
import { percentile } from './latency-stats';

function kindOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s.startsWith('SET LOCAL')) return 'SET planner settings';
  if (s.includes('ts_debug')) return 'prepare text query (lexemes, IDFs)';
  if (s.includes('FROM personas')) return 'require persona';
  if (s.startsWith('WITH h AS') || s.startsWith('WITH c(src, id, hit)')) return 'seeds: text top-k + neighbours, HNSW top-k, newest per importance';
  if (s.startsWith('SELECT json_agg(w) AS scored FROM unnest(')) return 'rows the score bound cannot rule out';
  if (s.startsWith('SELECT s.id, s.distance')) return "staged rows' exact pass (a page each)";
  if (s.includes('m.id = ANY(') && s.includes('AS tsv')) return "score the text matches' neighbours";
  if (s.startsWith('SELECT m.id, m.persona, m.category')) return 'full rows of the hits';
  return s.slice(0, 40);
}

export interface StatementProfile {
  kind: string;
  calls: number;
  p50: number;
  p95: number;
  dbP50: number | null;
}

export async function profileRecall(ctx: CoreContext, args: RecallArgs[]): Promise<{ statements: StatementProfile[]; plans: string[]; totalP50: number }> {
  const db = ctx.db;
  const times = new Map<string, number[]>();
  const captured: { sql: string; params: unknown[] }[] = [];
  let capture = false;
  const origQuery = db.query.bind(db);
  const origExec = db.exec.bind(db);
  const inDb = new Map<string, number[]>();
  let inStatements = 0;
  const record = (sql: string, ms: number, dbMs?: number) => {
    inStatements += ms;
    const k = kindOf(sql);
    times.set(k, [...(times.get(k) ?? []), ms]);
    if (dbMs !== undefined) inDb.set(k, [...(inDb.get(k) ?? []), dbMs]);
  };
  db.query = async <T>(sql: string, params: unknown[] = []) => {
    const t = performance.now();
    const r = await origQuery<T>(sql, params);
    record(sql, performance.now() - t, r.ms);
    if (capture) captured.push({ sql, params });
    return r;
  };
  let settings = '';
  db.exec = async (sql: string) => {
    const t = performance.now();
    await origExec(sql);
    record(sql, performance.now() - t);
    if (capture && sql.trim().startsWith('SET LOCAL')) settings = sql;
  };
  const totals: number[] = [];
  const rest: number[] = [];
  try {
    for (const [i, a] of args.entries()) {
      capture = i === 0;
      inStatements = 0;
      const t = performance.now();
      await recall(ctx, a);
      totals.push(performance.now() - t);
      rest.push(totals.at(-1)! - inStatements);
    }
  } finally {
    capture = false;
    db.query = origQuery;
    db.exec = origExec;
  }
  // What no statement above accounts for: BEGIN and COMMIT (sent by the transaction itself) and the core thread's own work.
  times.set('the rest: BEGIN, COMMIT, scoring and mapping in JS, time words', rest);
  const statements = [...times.entries()].map(([kind, xs]) => ({
    kind,
    calls: xs.length / args.length,
    p50: Number(percentile(xs, 50).toFixed(2)),
    p95: Number(percentile(xs, 95).toFixed(2)),
    // The statement's own time in the database worker (parse, plan, run, read the rows into JS); the rest of p50 is the trip between threads.
    dbP50: inDb.has(kind) ? Number(percentile(inDb.get(kind)!, 50).toFixed(2)) : null,
  }));
  // The same statements again under EXPLAIN ANALYZE, with the settings recall uses for each.
  const plans: string[] = [];
  for (const c of captured) {
    // Reads only: the seed statement starts with WITH or a parenthesised SELECT.
    if (!/^\s*(\(\s*SELECT|SELECT|WITH)/.test(c.sql) || c.sql.includes('FROM personas')) continue;
    const kind = kindOf(c.sql);
    const plan = await db.transaction(async (tx) => {
      if (settings) await tx.exec(settings);
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql}`, c.params);
      // The query vector and the id lists are printed in full by EXPLAIN: shortened, the plan stays readable.
      return rows.map((r) => r['QUERY PLAN'].replace(/'\[[^\]]{200,}\]'/g, "'[…]'").replace(/'\{[0-9a-f,-]{200,}\}'/g, "'{…}'")).join('\n');
    });
    plans.push(`-- ${kind}\n${plan}`);
  }
  return { statements, plans, totalP50: Number(percentile(totals, 50).toFixed(2)) };
}
