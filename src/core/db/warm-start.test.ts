import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../app/core';
import type { Core } from '../app/options';
import { templateCopy } from '../testing/core';
import { releaseWarmDatabase, warmDatabase } from './warm-start';

let core: Core | null = null;
let dir: string | null = null;
afterEach(async () => {
  await core?.close().catch(() => undefined);
  core = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('the database thread started ahead (docs/startup.md)', () => {
  it('the core opened next runs its database on that thread and answers', async () => {
    const spare = warmDatabase();
    dir = await templateCopy();
    core = await createCore({ dataDir: dir, dailyBackups: false });
    expect((await core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
    // Proof it is that thread: once it stops, so does the core's database.
    await spare.terminate();
    const after = await core.dispatch('personas.list', {});
    expect(after.ok).toBe(false);
  });

  it('a start that opens no local database (a PostgreSQL server) stops it', async () => {
    const spare = warmDatabase();
    const exited = new Promise<number>((resolve) => spare.once('exit', resolve));
    releaseWarmDatabase();
    await exited;
    // Nothing is left for a later database to take: it starts a thread of its own and opens.
    dir = await templateCopy();
    core = await createCore({ dataDir: dir, dailyBackups: false });
    expect((await core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
  });

  it('one that ended before any database took it is replaced: the core still opens, with its data', async () => {
    await warmDatabase().terminate();
    dir = await templateCopy();
    core = await createCore({ dataDir: dir, dailyBackups: false });
    await core.call('memories.write', { persona: 'main', content: 'Written after a lost warm start' });
    const page = await core.call('memories.list', { persona: 'main', limit: 10 });
    expect(page.items.map((m) => m.content)).toEqual(['Written after a lost warm start']);
  });
});
