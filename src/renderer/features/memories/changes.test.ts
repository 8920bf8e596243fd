import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Events } from '../../../shared/api';
import { makeTestCore, type TestCore } from '../../../core/testing/core';
import { installPageBridge } from '../../../core/testing/page-bridge';
import { waitFor } from '../../../core/testing/wait-jobs';

// The memories store against the real core, through the preload-bridge shape Electron's renderer uses.
// A change heard from elsewhere fetches its row; a delete heard while that fetch is out must win.
let core: TestCore;
// When set, `memories.get` answers only once the test releases it (a known, awaited point).
let held: { release: () => void; reached: () => void; gate: Promise<void> } | null = null;

let removeBridge: () => void = () => undefined;

beforeAll(async () => {
  core = await makeTestCore();
  removeBridge = installPageBridge(core, {
    async afterAnswer(method) {
      if (method !== 'memories.get' || !held) return;
      const h = held;
      h.reached();
      await h.gate;
    },
  });
});

afterAll(async () => {
  removeBridge();
  await core?.dispose();
});

describe('memories changed elsewhere', () => {
  it('a memory deleted while the row of its earlier update is being fetched stays gone from the list', async () => {
    const { useMemories } = await import('./store');
    const store = useMemories;
    const applied: Promise<void>[] = [];
    // What live.ts does in the app: events into the store.
    const off = core.events.subscribe((name, payload) => {
      if (name === 'memories.changed') applied.push(store.getState().applyChange(payload as Events['memories.changed']));
    });
    try {
      await store.getState().open('main');
      const m = await core.call('memories.write', { persona: 'main', content: 'Allergic to penicillin' });
      await waitFor(async () => store.getState().items.some((x) => x.id === m.id), 'the new memory in the list');
      await Promise.all(applied.splice(0));

      let reached!: () => void;
      let release!: () => void;
      const fetching = new Promise<void>((r) => (reached = r));
      held = { reached, release: () => release(), gate: new Promise<void>((r) => (release = r)) };
      await core.call('memories.update', { id: m.id, content: 'Allergic to penicillin and amoxicillin' });
      await fetching; // the update's row has been read and is on its way back
      held = null;
      await core.call('memories.delete', { id: m.id });
      release();
      await Promise.all(applied.splice(0));
      expect(store.getState().items.map((x) => x.content)).not.toContain('Allergic to penicillin and amoxicillin');
      expect(store.getState().items.some((x) => x.id === m.id)).toBe(false);
    } finally {
      off();
    }
  });
});
