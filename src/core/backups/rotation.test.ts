// Rotation (backupsKeep) never takes away what a person may still need: the
// archive a restore reads from, nor the last backup holding more than the
// database now does (docs/data-safety.md, "Backups and restore").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';

let core: TestCore;
beforeAll(async () => {
  core = await makeTestCore();
}, 180_000);
afterAll(async () => {
  await core?.dispose();
});

const contents = async () =>
  (await core.call('memories.list', { persona: 'main', limit: 100 })).items.map((m) => m.content).sort();

describe('backup rotation', () => {
  it('restoring the oldest of backupsKeep backups works and keeps that backup, the before-restore one and the keep count', async () => {
    await core.call('settings.set', { backupsKeep: 3 });
    const ids: string[] = [];
    for (const word of ['first', 'second', 'third']) {
      await core.call('memories.write', { persona: 'main', content: `the ${word} memory` });
      ids.push((await core.call('backups.create', {})).id);
    }
    expect((await core.call('backups.list', {})).map((b) => b.id)).toEqual([...ids].reverse());

    const out = await core.call('backups.restore', { id: ids[0]! });
    expect(await contents()).toEqual(['the first memory']);
    const after = (await core.call('backups.list', {})).map((b) => b.id);
    // The archive just restored from and the state it replaced (the way back) are both kept; the
    // count stays at backupsKeep, so the middle one went.
    expect(after).toEqual([out.before.id, ids[2], ids[0]]);
    // Restoring it again still works: it was never removed, not even for a moment.
    await core.call('backups.restore', { id: ids[0]! });
    expect(await contents()).toEqual(['the first memory']);
  }, 600_000);

  it('never rotates away the last backup that holds more than the database now holds', async () => {
    // A core of its own: no backups yet.
    await core.dispose();
    core = await makeTestCore();
    await core.call('settings.set', { backupsKeep: 2 });
    for (let i = 0; i < 5; i++) await core.call('memories.write', { persona: 'main', content: `life before ${i}` });
    const full = await core.call('backups.create', {});
    expect(full.counts.memories).toBe(5);
    // The memories are gone (a mistake, a folder started empty): daily backups of the smaller state follow.
    for (const m of (await core.call('memories.list', { persona: 'main', limit: 100 })).items) await core.call('memories.delete', { id: m.id });
    const later = [await core.call('backups.create', {}), await core.call('backups.create', {}), await core.call('backups.create', {})];
    const ids = (await core.call('backups.list', {})).map((b) => b.id);
    expect(ids).toEqual([later[2]!.id, full.id]);
    // Once the database holds as much again, that backup is ordinary and rotates out.
    for (let i = 0; i < 6; i++) await core.call('memories.write', { persona: 'main', content: `life after ${i}` });
    const grown = await core.call('backups.create', {});
    expect((await core.call('backups.list', {})).map((b) => b.id)).toEqual([grown.id, later[2]!.id]);
  }, 600_000);
});
