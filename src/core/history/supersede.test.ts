import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../chat/tools/run';
import { ensureConversation } from '../chat/conversation';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { waitForJobs } from '../testing/wait-jobs';

let f: ChatFixture;
beforeAll(async () => {
  f = await chatFixture({ reviewEvery: 1000 });
}, 180_000);
afterAll(async () => {
  await f?.dispose();
});

const write = (content: string, importance = 8) => f.core.call('memories.write', { persona: 'main', content, category: 'home', importance });
const recallIds = async (query: string, includeSuperseded?: boolean) =>
  (await f.core.call('recall', { persona: 'main', query, limit: 10, kinds: ['memory'], ...(includeSuperseded ? { includeSuperseded } : {}) })).map((h) => h.id);

describe('supersession', () => {
  it('memories.supersede keeps the old row, links both ways, hides it from default recall and the top-20 block; undo is one call', async () => {
    const seoul = await write('The user lives in Seoul');
    const berlin = await write('The user moved to Berlin and lives there now', 6);
    await waitForJobs(f.core, 'embeddings');
    expect(await recallIds('where does the user live')).toEqual(expect.arrayContaining([seoul.id, berlin.id]));

    const old = await f.core.call('memories.supersede', { id: seoul.id, by: berlin.id, reason: 'moved' });
    expect(old).toMatchObject({ id: seoul.id, supersededBy: berlin.id, content: 'The user lives in Seoul' });
    expect((await f.core.call('memories.get', { id: berlin.id })).supersedes).toEqual([seoul.id]);
    expect((await f.core.call('memories.list', { persona: 'main' })).items.map((m) => m.id)).toContain(seoul.id);

    const ids = await recallIds('where does the user live');
    expect(ids).toContain(berlin.id);
    expect(ids).not.toContain(seoul.id);
    // Asked for, the old fact comes back, below its replacement even though it scores higher (importance 8 vs 6).
    const all = await recallIds('where does the user live', true);
    expect(all.indexOf(seoul.id)).toBeGreaterThan(all.indexOf(berlin.id));
    expect(await f.core.call('memories.topBlock', { persona: 'main' })).not.toContain('Seoul');
    expect(await f.core.call('memories.topBlock', { persona: 'main' })).toContain('Berlin');

    const vs = await f.core.call('memories.history', { id: seoul.id });
    expect(vs[vs.length - 1]).toMatchObject({ change: 'supersede', supersededBy: berlin.id, actor: 'user', reason: 'moved' });

    const back = await f.core.call('memories.unsupersede', { id: seoul.id });
    expect(back.supersededBy).toBeNull();
    expect(await recallIds('where does the user live')).toContain(seoul.id);
    expect((await f.core.call('memories.history', { id: seoul.id })).map((v) => v.change)).toEqual(['create', 'supersede', 'unsupersede']);
  });

  it('refuses self-links, links across personas, superseding by a superseded memory, and a second replacement; nothing changes', async () => {
    await f.core.call('personas.create', { name: 'Other' });
    const a = await write('Works at Acme');
    const b = await write('Works at Globex');
    const c = await write('Works at Initech');
    const elsewhere = await f.core.call('memories.write', { persona: 'other', content: 'Works at Umbrella' });
    const code = async (args: { id: string; by: string }) => ((await f.core.dispatch('memories.supersede', args)) as { error?: { code: string } }).error?.code;
    expect(await code({ id: a.id, by: a.id })).toBe('invalid_args');
    expect(await code({ id: a.id, by: elsewhere.id })).toBe('invalid_args');
    await f.core.call('memories.supersede', { id: a.id, by: b.id });
    expect(await code({ id: a.id, by: c.id })).toBe('conflict'); // already replaced: undo first
    expect(await code({ id: c.id, by: a.id })).toBe('conflict'); // a is not current
    await f.core.call('memories.supersede', { id: b.id, by: c.id }); // a chain: a → b → c
    expect((await f.core.call('memories.get', { id: a.id })).supersededBy).toBe(b.id);
    expect((await f.core.call('memories.get', { id: c.id })).supersededBy).toBeNull();
    // Deleting the newer memory (a user's explicit act) makes the older one current again.
    await f.core.call('memories.delete', { id: c.id });
    expect((await f.core.call('memories.get', { id: b.id })).supersededBy).toBeNull();
  });

  it("the memory tool's supersede writes the new fact and links the old one in one validated call", async () => {
    const conv = await ensureConversation(f.core.ctx.db, 'main');
    const scope = { persona: 'main', conversationId: conv.id };
    const job = await write('Job: junior designer at Studio Nord');
    const out = await runTool(
      f.core.ctx,
      scope,
      'memory',
      JSON.stringify({ action: 'supersede', id: job.id, content: 'Job: art director at Studio Nord', category: 'job', reason: 'promoted' }),
    );
    expect(out.ok).toBe(true);
    const newId = out.memoryIds[0]!;
    expect(out.content).toContain(`supersedes memory ${job.id}`);
    expect(await f.core.call('memories.get', { id: job.id })).toMatchObject({ supersededBy: newId, content: 'Job: junior designer at Studio Nord' });
    const vs = await f.core.call('memories.history', { id: job.id });
    expect(vs[vs.length - 1]).toMatchObject({ change: 'supersede', actor: 'tool', reason: 'promoted', conversationId: conv.id });
    expect(await f.core.call('memories.history', { id: newId })).toMatchObject([{ change: 'create', actor: 'tool' }]);

    // A bad old id (unknown, or another persona's) writes nothing at all.
    const before = (await f.core.call('memories.list', { persona: 'main' })).total;
    const other = await f.core.call('memories.write', { persona: 'other', content: 'Secret of another persona' });
    for (const id of ['00000000-0000-4000-8000-000000000000', other.id]) {
      const bad = await runTool(f.core.ctx, scope, 'memory', JSON.stringify({ action: 'supersede', id, content: 'Job: CEO' }));
      expect(bad.ok).toBe(false);
      expect(bad.content).toMatch(/no memory/);
    }
    const missing = await runTool(f.core.ctx, scope, 'memory', JSON.stringify({ action: 'supersede', content: 'Job: CEO' }));
    expect(missing).toMatchObject({ ok: false });
    expect(missing.content).toMatch(/id/);
    expect((await f.core.call('memories.list', { persona: 'main' })).total).toBe(before);
    expect((await f.core.call('memories.get', { id: other.id })).supersededBy).toBeNull();
  });

  it('the system prompt stays byte-stable across a supersession until the next refresh point (/clear)', async () => {
    await f.core.call('chat.clear', { persona: 'main' });
    const old = await write('Favourite café: Blue Door', 10);
    const first = (await f.core.call('chat.prompt', { persona: 'main' })).system;
    expect(first).toContain('Blue Door');
    f.fake.push({ text: 'ok' });
    await f.core.call('chat.send', { persona: 'main', text: 'hi' });
    const sent = f.fake.requests[f.fake.requests.length - 1]!.messages[0]!.content;
    expect(sent).toBe(first);

    const newer = await write('Favourite café: Kaffeebar Mitte', 10);
    await f.core.call('memories.supersede', { id: old.id, by: newer.id });
    f.fake.push({ text: 'ok' });
    await f.core.call('chat.send', { persona: 'main', text: 'again' });
    expect(f.fake.requests[f.fake.requests.length - 1]!.messages[0]!.content).toBe(first);
    expect((await f.core.call('chat.prompt', { persona: 'main' })).system).toBe(first);

    await f.core.call('chat.clear', { persona: 'main' });
    const refreshed = (await f.core.call('chat.prompt', { persona: 'main' })).system;
    expect(refreshed).not.toContain('Blue Door');
    expect(refreshed).toContain('Kaffeebar Mitte');
  });

  it('the review proposes supersessions: shown the resembling memories, only the confident, well-formed one is applied, with its reason', async () => {
    const team = await write('Plays football with the Tuesday team', 7);
    const car = await write('Drives a red Fiat Panda', 7);
    const stray = await write('Owns a vintage typewriter', 7);
    await waitForJobs(f.core, 'embeddings');
    const isReview = (body: { response_format?: unknown }) => body.response_format !== undefined;
    let reviewPrompt = '';
    f.fake.fallback = (body) => {
      if (!isReview(body)) return { text: 'OK.' };
      reviewPrompt = String(body.messages[1]!.content);
      return {
        text: JSON.stringify({
          userModel: [],
          memories: [
            {
              category: 'sport',
              content: 'Quit the Tuesday football team and now plays tennis',
              importance: 7,
              confidence: 9,
              supersedes: [
                { id: team.id, reason: 'quit the team', confidence: 9 },
                { id: car.id, reason: 'maybe sold the car?', confidence: 4 },
                { id: 'not-an-id', reason: 'broken', confidence: 9 },
                { id: stray.id, reason: 'never shown', confidence: 9 },
              ],
            },
          ],
        }),
      };
    };
    await f.core.call('settings.set', { reviewEvery: 1 });
    await f.core.call('chat.send', { persona: 'main', text: 'I quit the Tuesday football team; tennis now. Still driving the Fiat Panda.' });
    await waitForJobs(f.core, 'memory_review');
    await f.core.call('settings.set', { reviewEvery: 1000 });

    // The model saw the existing memories the conversation resembles, with their ids.
    expect(reviewPrompt).toContain(`- ${team.id}: Plays football with the Tuesday team`);
    expect(reviewPrompt).toContain(`- ${car.id}: Drives a red Fiat Panda`);
    expect(reviewPrompt).not.toContain(stray.id);
    const newer = (await f.core.call('memories.list', { persona: 'main', filters: { origin: 'review' } })).items.find((m) =>
      m.content.startsWith('Quit the Tuesday'),
    )!;
    expect(await f.core.call('memories.get', { id: team.id })).toMatchObject({ supersededBy: newer.id });
    expect((await f.core.call('memories.get', { id: car.id })).supersededBy).toBeNull();
    expect((await f.core.call('memories.get', { id: stray.id })).supersededBy).toBeNull();
    const vs = await f.core.call('memories.history', { id: team.id });
    expect(vs[vs.length - 1]).toMatchObject({ change: 'supersede', actor: 'review', reason: 'quit the team', supersededBy: newer.id });
    expect(newer.supersedes).toEqual([team.id]);
  });

  it('the user_model_history tool tells the model what the user said before', async () => {
    const conv = await ensureConversation(f.core.ctx.db, 'main');
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Lives in Lisbon', confidence: 7 });
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Lives in Porto', confidence: 8 });
    const out = await runTool(f.core.ctx, { persona: 'main', conversationId: conv.id }, 'user_model_history', '{"dimension":"baseline"}');
    expect(out.ok).toBe(true);
    expect(out.content).toMatch(/v1 .* by user: \[conf=7\] Lives in Lisbon\nv2 .*→ now by user: \[conf=8\] Lives in Porto/);
    const none = await runTool(f.core.ctx, { persona: 'main', conversationId: conv.id }, 'user_model_history', '{"dimension":"zodiac"}');
    expect(none.content).toMatch(/never had a dimension "zodiac"/);
  });
});
