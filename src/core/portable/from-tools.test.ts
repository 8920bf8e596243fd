import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { readMem0 } from './from-tools';

// mem0's export as its platform and `get_all` give it: what the source knows (category,
// day, importance) is kept (docs/export.md, "Imports from other tools").
const MEM0_EXPORT = {
  results: [
    {
      id: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
      memory: 'Is vegetarian and allergic to peanuts',
      user_id: 'alex',
      hash: 'b2f4c1d0e9a8',
      metadata: { source: 'chat', importance: 9 },
      categories: ['food', 'health'],
      created_at: '2024-07-20T23:09:37.165152-07:00',
      updated_at: '2024-07-21T01:00:00.000000-07:00',
    },
    {
      id: '5f0e7d1a-2b3c-4d5e-9f60-718293a4b5c6',
      memory: 'Daughter Ada loves chess',
      user_id: 'alex',
      metadata: { category: 'family', priority: 0.7 },
      categories: null,
      created_at: '2025-01-05T08:00:00Z',
      updated_at: null,
    },
    {
      id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      memory: 'Prefers window seats on long flights',
      user_id: 'alex',
      metadata: null,
      category: 'travel',
      created_at: 1735732800, // 2025-01-01T12:00:00Z, epoch seconds
    },
    { id: 'e1', memory: 'Plays the cello', user_id: 'alex', metadata: { importance: 'very' }, created_at: 'yesterday-ish' },
  ],
};

describe('readMem0', () => {
  it('keeps category, the day as written, and importance where the source has one', () => {
    expect(readMem0(JSON.stringify(MEM0_EXPORT), '2026-03-10')).toEqual([
      { content: 'Is vegetarian and allergic to peanuts', day: '2024-07-20', category: 'food', importance: 9 },
      { content: 'Daughter Ada loves chess', day: '2025-01-05', category: 'family', importance: 7 },
      { content: 'Prefers window seats on long flights', day: expect.stringMatching(/^2025-01-0[12]$/), category: 'travel' },
      // Nothing usable: today, uncategorised, the default importance.
      { content: 'Plays the cello', day: '2026-03-10', category: null },
    ]);
  });
});

describe('memories.importFrom mem0', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore();
    await core.call('personas.create', { name: 'Mem' });
  });
  afterAll(async () => {
    await core?.dispose();
  });

  it('stores category, day and importance from the export', async () => {
    const r = await core.call('memories.importFrom', { persona: 'mem', format: 'mem0', text: JSON.stringify(MEM0_EXPORT) });
    expect(r).toMatchObject({ added: 4, skipped: 0 });
    const stored = (await core.call('memories.list', { persona: 'mem' })).items.map((m) => [m.content, m.category, m.day, m.importance, m.origin]);
    expect(stored).toEqual(
      expect.arrayContaining([
        ['Is vegetarian and allergic to peanuts', 'food', '2024-07-20', 9, 'import'],
        ['Daughter Ada loves chess', 'family', '2025-01-05', 7, 'import'],
        ['Plays the cello', null, expect.any(String), 5, 'import'],
      ]),
    );
    expect(await core.call('memories.categories', { persona: 'mem' })).toEqual(['family', 'food', 'travel']);
  });
});
