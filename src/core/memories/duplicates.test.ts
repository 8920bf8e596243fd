import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import type { TestCore } from '../testing/core';

// No job queues: stored memories keep no vector, so the text part of the rule
// decides (docs/duplicates.md) whatever the fake embedder would say.
let fx: EmbedFixture;
let core: TestCore;
let persona = '';

beforeAll(async () => {
  fx = await makeEmbedFixture({ queues: {} });
  core = fx.core;
});
afterAll(async () => {
  await fx?.dispose();
});

const write = (content: string, extra: { importance?: number } = {}) => core.call('memories.write', { persona, content, ...extra });
const current = async () =>
  (await core.call('memories.list', { persona, limit: 100 })).items.filter((m) => !m.supersededBy).map((m) => m.content).sort();

describe('near-duplicates of stored memories', () => {
  it('memories.similar finds the same fact in other words, not a related one', async () => {
    persona = (await core.call('personas.create', { name: 'Similar' })).id;
    const peanuts = await write('User is allergic to peanuts.');
    await write('User meets Ana on Tuesday.');
    const found = await core.call('memories.similar', { persona, content: 'User has a peanut allergy' });
    expect(found?.memory.id).toBe(peanuts.id);
    expect(await core.call('memories.similar', { persona, content: 'User is allergic to shellfish.' })).toBeNull();
    expect(await core.call('memories.similar', { persona, content: 'User meets Ana on Thursday.' })).toBeNull();
    // The memory being replaced is not its own duplicate.
    expect(await core.call('memories.similar', { persona, content: 'User has a peanut allergy', exclude: [peanuts.id] })).toBeNull();
  });

  it('memories.similar finds a paraphrase that shares no word with the stored memory as written, without vectors', async () => {
    persona = (await core.call('personas.create', { name: 'Paraphrase' })).id;
    // More stored memories than the text search returns, each as close as the right one by the words as written.
    for (let i = 0; i < 14; i++) await write(`User suffers from a cold in winter ${i}.`);
    const pressure = await write('User has high blood pressure.');
    const found = await core.call('memories.similar', { persona, content: 'User suffers from hypertension.' });
    expect(found?.memory.id).toBe(pressure.id);
  });

  it('a ChatGPT list: the preview marks paraphrases of stored memories, the import writes none of them and counts them apart', async () => {
    persona = (await core.call('personas.create', { name: 'Import' })).id;
    const ada = await write('User has a daughter named Ada who loves chess.');
    await write('User is allergic to peanuts.');
    const list = [
      "- User's daughter Ada loves playing chess.",
      '- User has a peanut allergy.',
      '- User is allergic to peanuts.',
      '- User is allergic to shellfish.',
      '- User likes jazz.',
    ].join('\n');
    const preview = await core.call('memories.importFrom', { persona, format: 'chatgpt', text: list, dryRun: true });
    expect(preview.items.map((i) => i.status)).toEqual(['near-duplicate', 'near-duplicate', 'duplicate', 'added', 'added']);
    expect(preview.items[0]!.duplicateOf).toBe(ada.id);
    expect(preview).toMatchObject({ added: 2, skipped: 3, duplicates: 1, nearDuplicates: 2, dryRun: true });
    expect(await current()).toHaveLength(2);
    const done = await core.call('memories.importFrom', { persona, format: 'chatgpt', text: list });
    expect(done).toMatchObject({ added: 2, duplicates: 1, nearDuplicates: 2 });
    expect(await current()).toEqual([
      'User has a daughter named Ada who loves chess.',
      'User is allergic to peanuts.',
      'User is allergic to shellfish.',
      'User likes jazz.',
    ]);
  });
});

describe('Tidy up', () => {
  it('groups stored near-duplicates biggest first, merges by supersession (undoable), and forgets pairs marked not duplicates', async () => {
    persona = (await core.call('personas.create', { name: 'Tidy' })).id;
    const p1 = await write('User is allergic to peanuts.');
    const p2 = await write('User has a peanut allergy.', { importance: 8 });
    const p3 = await write('user is allergic to peanuts');
    const j1 = await write('User likes jazz.');
    const j2 = await write('User enjoys jazz music.');
    await write('User is allergic to shellfish.');
    await write('User no longer likes jazz.');
    const groups = await core.call('memories.duplicates', { persona });
    expect(groups.map((g) => g.memories.map((m) => m.id).sort())).toEqual([[p1.id, p2.id, p3.id].sort(), [j1.id, j2.id].sort()]);
    // Kept by default: the most important.
    expect(groups[0]!.keep).toBe(p2.id);

    const merged = await core.call('memories.merge', { keep: p2.id, others: [p1.id, p3.id] });
    expect(merged.map((m) => m.supersededBy)).toEqual([p2.id, p2.id]);
    expect(await current()).not.toContain('User is allergic to peanuts.');
    expect((await core.call('memories.history', { id: p1.id })).at(-1)).toMatchObject({ change: 'supersede' });
    await core.call('memories.unsupersede', { id: p1.id });
    expect(await current()).toContain('User is allergic to peanuts.');

    await core.call('memories.notDuplicates', { ids: [j1.id, j2.id] });
    const after = await core.call('memories.duplicates', { persona });
    expect(after.map((g) => g.memories.map((m) => m.id).sort())).toEqual([[p1.id, p2.id].sort()]);

    // A memory deleted and restored from the trash keeps its "not duplicates" mark: the pair is not offered again.
    await core.call('memories.delete', { id: j2.id });
    await core.call('trash.restore', { id: j2.id });
    const restored = await core.call('memories.duplicates', { persona });
    expect(restored.map((g) => g.memories.map((m) => m.id).sort())).toEqual([[p1.id, p2.id].sort()]);
  });

  it('groups paraphrases that share no word as written ("hypertension" / "high blood pressure"), not their neighbours', async () => {
    persona = (await core.call('personas.create', { name: 'Lexicon' })).id;
    const high = await write('User has high blood pressure.');
    const hyper = await write('User suffers from hypertension.');
    await write('User has low blood pressure.');
    const spiders = await write('User is afraid of spiders.');
    const arachno = await write('User has arachnophobia.');
    await write('User is afraid of snakes.');
    const groups = await core.call('memories.duplicates', { persona });
    expect(groups.map((g) => g.memories.map((m) => m.id).sort()).sort()).toEqual([[high.id, hyper.id].sort(), [spiders.id, arachno.id].sort()].sort());
  });

  it('refuses to merge a memory into itself alone or into one of another persona', async () => {
    const other = (await core.call('personas.create', { name: 'Other' })).id;
    const here = await write('User plays the guitar.');
    const there = await core.call('memories.write', { persona: other, content: 'User plays guitar.' });
    await expect(core.call('memories.merge', { keep: here.id, others: [here.id] })).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(core.call('memories.merge', { keep: here.id, others: [there.id] })).rejects.toMatchObject({ code: 'not_found' });
    expect(await current()).toContain('User plays the guitar.');
  });
});
