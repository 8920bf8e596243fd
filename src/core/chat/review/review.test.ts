import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitForJobs } from '../../testing/wait-jobs';
import { afterTurn } from '../after-turn';
import { loadChatSettings } from '../../settings/chat-settings';
import { ensureConversation } from '../conversation';
import { type ChatFixture, chatFixture } from '../../testing/chat-fixture';

// One core for the file (starting one is most of a test's time, docs/testing.md): each test has a
// persona of its own, starts once the previous test's reviews are done, with the fake model's
// script emptied and the review interval back at 8.
let f: ChatFixture;
let p: string;
let n = 0;
beforeAll(async () => {
  f = await chatFixture({ reviewEvery: 8 });
});
afterAll(async () => {
  await f?.dispose();
});
beforeEach(async () => {
  await waitForJobs(f.core, 'memory_review');
  f.fake.reset();
  await f.core.call('settings.set', { reviewEvery: 8 });
  p = (await f.core.call('personas.create', { name: `Person ${++n}` })).id;
});

const isReview = (body: { response_format?: unknown }) => body.response_format !== undefined;
const reviewRequests = () => f.fake.requests.filter(isReview);

async function reviewJobs() {
  return (await f.core.call('jobs.list', { queue: 'memory_review', persona: p })).jobs;
}

describe('periodic review (trigger 2)', () => {
  it('the 8th successful user turn enqueues exactly one review with a transcript slice, nothing injected into the turn', async () => {
    f.fake.fallback = (body) => (isReview(body) ? { text: '{"userModel":[],"memories":[]}' } : { text: 'Sure.' });
    for (let i = 1; i <= 7; i++) await f.core.call('chat.send', { persona: p, text: `message ${i}` });
    expect(await reviewJobs()).toHaveLength(0);
    await f.core.call('chat.send', { persona: p, text: 'message 8: I moved to Porto last week' });
    const jobs = await reviewJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.args.transcript).toMatch(/User: message 1\n/);
    expect(jobs[0]!.args.transcript).toMatch(/User: message 8: I moved to Porto last week\nAssistant: Sure\.$/);
    await waitForJobs(f.core, 'memory_review');
    // The turn's own requests never carried a review instruction.
    const turnRequests = f.fake.requests.filter((b) => !isReview(b));
    expect(turnRequests).toHaveLength(8);
    for (const r of turnRequests) expect(JSON.stringify(r.messages)).not.toMatch(/review/i);
    expect(reviewRequests()).toHaveLength(1);
    // Turns 9..15 do not enqueue; the 16th does.
    for (let i = 9; i <= 15; i++) await f.core.call('chat.send', { persona: p, text: `message ${i}` });
    expect(await reviewJobs()).toHaveLength(1);
    await f.core.call('chat.send', { persona: p, text: 'message 16' });
    expect(await reviewJobs()).toHaveLength(2);
  });

  it('concurrent turns never double-enqueue', async () => {
    f.fake.fallback = () => ({ text: '{"userModel":[],"memories":[]}' });
    const conv = await ensureConversation(f.core.ctx.db, p);
    const settings = await loadChatSettings(f.core.ctx);
    // 24 turns finishing at once (as from three personas' worth of concurrency): exactly 3 reviews.
    await Promise.all(Array.from({ length: 24 }, () => afterTurn(f.core.ctx, conv, settings, true)));
    expect(await reviewJobs()).toHaveLength(3);
    const { rows } = await f.core.ctx.db.query<{ n: number }>(`SELECT user_msgs_since_nudge AS n FROM conversations WHERE id = $1`, [conv.id]);
    expect(rows[0]!.n).toBe(0);
    // Sends racing in one persona: one runs, the others are refused as busy and do not count.
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => f.core.call('chat.send', { persona: p, text: `race ${i}` })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const { rows: after } = await f.core.ctx.db.query<{ n: number }>(`SELECT user_msgs_since_nudge AS n FROM conversations WHERE id = $1`, [conv.id]);
    expect(after[0]!.n).toBe(1);
  });

  it('writes only confident, new facts with origin review, deduped against the user model and memories', async () => {
    await f.core.call('userModel.upsert', { persona: p, dimension: 'baseline', content: 'Lives in Porto.', confidence: 8 });
    await f.core.call('memories.write', { persona: p, content: 'Ran the Lisbon half marathon on 2026-03-01.', category: 'journal' });
    await waitForJobs(f.core, 'embeddings');
    const output = {
      userModel: [
        { dimension: 'baseline', content: 'lives in porto', confidence: 9 }, // same as stored, modulo case/punctuation
        { dimension: 'preferences', content: 'Prefers short answers.', confidence: 9 },
        { dimension: 'goals', content: 'Maybe wants to learn Go.', confidence: 4 }, // not confident
      ],
      memories: [
        { category: 'journal', content: 'Ran the Lisbon half-marathon on 2026-03-01!', importance: 6, confidence: 9 }, // duplicate
        { category: 'journal', content: 'Ran the half marathon in Lisbon on 1 March 2026.', importance: 6, confidence: 9 }, // the same fact in other words
        { category: 'project', content: 'Hearth 0.1 went out to first testers.', importance: 8, confidence: 8 },
        { category: 'journal', content: 'Might have a cold.', importance: 3, confidence: 5 },
      ],
    };
    f.fake.fallback = (body) => (isReview(body) ? { text: JSON.stringify(output) } : { text: 'Noted.' });
    await f.core.call('settings.set', { reviewEvery: 1 });
    await f.core.call('chat.send', { persona: p, text: 'We sent Hearth to testers; keep answers short please' });
    await waitForJobs(f.core, 'memory_review');
    const sent = reviewRequests()[0]!;
    // The provider is told the shape the answer is checked against (generated from the same zod schema).
    expect(sent.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'memory_review', schema: { type: 'object', required: ['userModel', 'memories'] } },
    });
    expect(sent.messages[1]!.content).toMatch(/- \[baseline, conf=8\] Lives in Porto\./);
    expect(sent.messages[1]!.content).toMatch(/User: We sent Hearth to testers/);

    const model = await f.core.call('userModel.list', { persona: p });
    expect(model.map((e) => [e.dimension, e.content])).toEqual([
      ['baseline', 'Lives in Porto.'],
      ['preferences', 'Prefers short answers.'],
    ]);
    const memories = (await f.core.call('memories.list', { persona: p })).items;
    expect(memories.map((m) => [m.content, m.origin]).sort()).toEqual([
      ['Hearth 0.1 went out to first testers.', 'review'],
      ['Ran the Lisbon half marathon on 2026-03-01.', 'manual'],
    ]);
  });

  it('malformed review output is logged on the job and writes nothing', async () => {
    for (const bad of ['not json at all', '{"userModel":[{"dimension":"x"}],"memories":"no"}']) {
      f.fake.fallback = (body) => (isReview(body) ? { text: bad } : { text: 'ok' });
      await f.core.call('settings.set', { reviewEvery: 1 });
      await f.core.call('chat.send', { persona: p, text: 'I love climbing' });
      const [job] = (await waitForJobs(f.core, 'memory_review')).slice(-1);
      expect(job!.state).toBe('completed');
      expect(job!.progress).toMatchObject({ stage: 'malformed output' });
      expect(job!.progress!.label).toMatch(/nothing written/);
    }
    expect((await f.core.call('memories.list', { persona: p })).total).toBe(0);
    expect(await f.core.call('userModel.list', { persona: p })).toEqual([]);
  });
});
