import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('backups and restore', () => {
  it('a backup on demand is written, verified and listed with its counts; restore brings that state back and keeps the replaced one', async () => {
    await core.call('memories.write', { persona: 'main', content: 'I keep bees on the roof' });
    await core.call('memories.write', { persona: 'main', content: 'My sister is called Ada' });
    const b = await core.call('backups.create', {});
    expect(b).toMatchObject({ reason: 'manual', verified: true, counts: { personas: 1, memories: 2 } });
    expect(b.bytes).toBeGreaterThan(1000);
    const dir = join(core.dataDir, 'backups');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o077).toBe(0);
    expect((await core.call('backups.list', {})).map((x) => x.id)).toEqual([b.id]);

    // Life goes on: one memory added, one deleted.
    const ada = (await core.call('memories.list', { persona: 'main', limit: 10 })).items.find((m) => m.content.includes('Ada'))!;
    await core.call('memories.delete', { id: ada.id });
    await core.call('memories.write', { persona: 'main', content: 'I moved to Lisbon' });
    expect(await contents()).toEqual(['I keep bees on the roof', 'I moved to Lisbon']);

    const out = await core.call('backups.restore', { id: b.id });
    expect(out.restored.id).toBe(b.id);
    expect(await contents()).toEqual(['I keep bees on the roof', 'My sister is called Ada']);
    // The state it replaced was backed up first and can itself be restored.
    expect(out.before).toMatchObject({ reason: 'before-restore', verified: true, counts: { memories: 2 } });
    await core.call('memories.write', { persona: 'main', content: 'written after the restore' });
    await core.call('backups.restore', { id: out.before.id });
    expect(await contents()).toEqual(['I keep bees on the roof', 'I moved to Lisbon']);
    expect(await core.call('data.checkIntegrity', {})).toMatchObject({ ok: true, problems: [] });
  }, 600_000);

  it('a truncated or altered backup is refused and the current data stays as it was', async () => {
    const b = await core.call('backups.create', {});
    await core.call('memories.write', { persona: 'main', content: 'written after the backup' });
    const before = await contents();
    const listed = (await core.call('backups.list', {})).length;
    const archive = join(core.dataDir, 'backups', `${b.id}.tar.gz`);
    const bytes = readFileSync(archive);

    truncateSync(archive, Math.floor(bytes.byteLength / 2));
    const truncated = await core.dispatch('backups.restore', { id: b.id });
    expect(truncated).toMatchObject({ ok: false, error: { code: 'backup_damaged' } });
    expect(!truncated.ok && truncated.error.message).toMatch(/Nothing was changed/);

    const altered = Buffer.from(bytes);
    altered[Math.floor(altered.length / 2)]! ^= 0xff;
    writeFileSync(archive, altered);
    expect(await core.dispatch('backups.restore', { id: b.id })).toMatchObject({ ok: false, error: { code: 'backup_damaged' } });

    expect(await contents()).toEqual(before);
    // Refused before anything was written: no "before-restore" backup either.
    expect((await core.call('backups.list', {})).length).toBe(listed);
    expect(await core.dispatch('backups.restore', { id: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
  }, 600_000);

  it('keeps the newest backupsKeep; deleting a persona is backed up first', async () => {
    await core.call('settings.set', { backupsKeep: 2 });
    const p = await core.call('personas.create', { name: 'Work' });
    await core.call('memories.write', { persona: p.id, content: 'The deadline is in March' });
    expect(await core.dispatch('personas.delete', { id: p.id, confirm: 'wrong' })).toMatchObject({ ok: false });
    await core.call('personas.delete', { id: p.id, confirm: 'Work' });
    const list = await core.call('backups.list', {});
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ reason: 'before-persona-delete', counts: { personas: 2 } });
    await core.call('backups.create', {});
    expect(await core.call('backups.list', {})).toHaveLength(2);
  }, 600_000);

  it('deleting a persona says which step it is on, and deletes nothing when the backup before it fails', async () => {
    const p = await core.call('personas.create', { name: 'Garden' });
    await core.call('memories.write', { persona: p.id, content: 'Tomatoes go in after the last frost' });
    const stages: string[] = [];
    const stop = core.events.subscribe((name, payload) => {
      if (name === 'personas.deleting') stages.push((payload as { stage: string }).stage);
    });
    // A damaged disk: the backups folder's name is taken by a file, so no backup can be written.
    const dir = join(core.dataDir, 'backups');
    const kept = `${dir}.aside`;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    renameSync(dir, kept);
    writeFileSync(dir, 'not a folder');
    try {
      const failed = await core.dispatch('personas.delete', { id: p.id, confirm: 'Garden' });
      expect(failed).toMatchObject({ ok: false });
      expect(!failed.ok && failed.error.message).toMatch(/^Could not back up before deleting “Garden”, so nothing was deleted: /);
      expect(stages).toEqual(['backup']);
      expect((await core.call('memories.list', { persona: p.id })).items.map((m) => m.content)).toEqual(['Tomatoes go in after the last frost']);
    } finally {
      rmSync(dir);
      renameSync(kept, dir);
    }
    stages.length = 0;
    await core.call('personas.delete', { id: p.id, confirm: 'Garden' });
    expect(stages).toEqual(['backup', 'delete']);
    stop();
    expect((await core.call('personas.list', {})).map((x) => x.id)).not.toContain(p.id);
  }, 600_000);
});
