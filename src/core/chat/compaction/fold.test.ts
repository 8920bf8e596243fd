// The rolling summary and the review counter with two Hearths on one server
// (docs/server-mode.md): their writes must stay whole however the two
// interleave. Two real cores, one database; `npm run test:servers -- --only
// postgres src/core/chat/compaction/fold.test.ts`.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../../testing/core';
import { noServerReason, testBackend } from '../../testing/server';
import { prng } from '../../testing/synthetic-corpus';
import { afterTurn } from '../after-turn';
import { loadChatSettings } from '../../settings/chat-settings';
import { ensureConversation } from '../conversation';
import { insertMessage, listMessages } from '../messages';
import { commitFold } from './fold';

const skipReason = testBackend() === 'server' ? null : (noServerReason() ?? 'pglite-socket cannot hold two Hearths on one database');
if (skipReason) console.log(`fold.test.ts: two-Hearth race tests skip: ${skipReason}`);

// Seeded (mulberry32, testing/synthetic-corpus.ts): a failing round can be run again.
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skipReason !== null)('two Hearths writing one conversation at once', () => {
  let a: TestCore | null = null;
  let b: TestCore | null = null;
  afterEach(async () => {
    await b?.dispose();
    await a?.dispose();
    a = b = null;
  });

  async function two() {
    // No queue served: the review and compaction jobs are only counted here, never run.
    a = await makeTestCore({ queues: {} });
    b = await makeTestCore({ databaseUrl: a.databaseUrl!, queues: {} });
    return [a, b] as const;
  }

  it('two compactions folding at once never lose a folded message from the rolling summary (seeded rounds)', async () => {
    const cores = await two();
    const conv = await ensureConversation(cores[0].ctx.db, 'main');
    const SEED = 20_261_201;
    const next = prng(SEED);
    for (let i = 0; i < 120; i++) await insertMessage(cores[0].ctx.db, conv.id, { role: i % 2 ? 'assistant' : 'user', content: `m${i}` });

    // As compactionWork does: read the summary, plan from the unfolded messages, (summarise), commit.
    // The summary here lists the folded messages, so a summary built on a stale one shows as lost ids.
    const compaction = async (core: TestCore, r: () => number) => {
      const { rows } = await core.ctx.db.query<{ summary: string }>('SELECT summary FROM conversations WHERE id = $1', [conv.id]);
      const previous = rows[0]!.summary;
      await pause(r() * 6);
      const unfolded = await listMessages(core.ctx.db, conv.id, true);
      const fold = unfolded.slice(0, 1 + Math.floor(r() * 3));
      if (!fold.length) return;
      await pause(r() * 6);
      const summary = [previous, ...fold.map((m) => m.content)].filter(Boolean).join(' ');
      await commitFold(core.ctx.db, conv.id, fold.map((m) => m.id), previous, summary);
    };
    for (let round = 0; round < 40; round++) {
      const seeds = [next(), next()].map((s) => prng(Math.floor(s * 2 ** 31)));
      await Promise.all([compaction(cores[0], seeds[0]!), compaction(cores[1], seeds[1]!)]);
    }
    const { rows } = await cores[1].ctx.db.query<{ summary: string }>('SELECT summary FROM conversations WHERE id = $1', [conv.id]);
    const inSummary = rows[0]!.summary.split(' ').filter(Boolean);
    const folded = (await listMessages(cores[1].ctx.db, conv.id, false)).filter((m) => m.folded).map((m) => m.content);
    expect(folded.length).toBeGreaterThan(40);
    // Every folded message is in the summary exactly once, in order (seed ${SEED}).
    expect(inSummary).toEqual(folded);
  }, 180_000);

  it('the review counter counts every successful turn of both Hearths: no lost increment, one review per cadence', async () => {
    const cores = await two();
    const conv = await ensureConversation(cores[0].ctx.db, 'main');
    const settings = { ...(await loadChatSettings(cores[0].ctx)), reviewEvery: 7, contextBudgetTokens: 1_000_000 };
    const next = prng(4242);
    const TURNS = 60;
    const turns = (core: TestCore) => async () => {
      for (let i = 0; i < TURNS; i++) {
        if (next() < 0.3) await pause(next() * 4);
        await afterTurn(core.ctx, conv, settings, true);
      }
    };
    // Two turns in flight on each Hearth, as two windows would have.
    await Promise.all([turns(cores[0])(), turns(cores[0])(), turns(cores[1])(), turns(cores[1])()]);
    const total = TURNS * 4;
    const { rows } = await cores[0].ctx.db.query<{ n: number; since: number }>(
      `SELECT (SELECT count(*)::int FROM jobs WHERE queue = 'memory_review') AS n,
              (SELECT user_msgs_since_nudge FROM conversations WHERE id = $1) AS since`,
      [conv.id],
    );
    expect(rows[0]).toEqual({ n: Math.floor(total / 7), since: total % 7 });
  }, 180_000);
});
