import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderWatch } from '../../../shared/api';
import { type Core, createCore } from '../../index';
import { installEmbeddings } from '../../testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../../testing/fake-openai/server';
import { templateCopy } from '../../testing/core';
import { makeCorruptPdf } from '../../testing/test-pdfs';
import { waitFor } from '../../testing/wait-jobs';

// One data folder, opened twice (the restart test closes it and opens it again); every watched folder lies
// in `root`, the one watch dir this core was started with, as the browser host would.
let server: FakeServer;
let dataDir: string;
let root: string;
let core: Core;

async function open(): Promise<Core> {
  return createCore({ dataDir, dailyBackups: false, startupCheckDelayMs: null, watchDirs: [root], watch: { missingRetryMs: 300 } });
}

beforeAll(async () => {
  server = await startFakeServer();
  installEmbeddings(server, { dimensions: 16 });
  dataDir = await templateCopy();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-watch-')));
  core = await open();
  await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 } });
});

afterAll(async () => {
  await core?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

function folder(name: string, files: Record<string, string | Uint8Array> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) put(dir, rel, content);
  return dir;
}

function put(dir: string, rel: string, content: string | Uint8Array): void {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), content);
}

async function sources(persona = 'main'): Promise<string[]> {
  return (await core.call('knowledge.listSources', { persona })).map((s) => s.source).sort();
}

/** The sources recall answers with that hold `query`'s words (recall also ranks by meaning: near misses come back too). */
async function found(query: string, persona = 'main'): Promise<string[]> {
  const hits = await core.call('recall', { persona, query, limit: 10, kinds: ['knowledge'] });
  const words = query.toLowerCase().split(' ');
  return hits.filter((h) => words.every((w) => h.content.toLowerCase().includes(w))).map((h) => h.source!).sort();
}

async function watchOf(dir: string, persona = 'main'): Promise<FolderWatch> {
  const { watches } = await core.call('knowledge.watches', { persona });
  return watches.find((w) => w.folder === dir)!;
}

/** Until every file of the watch has been dealt with (none waiting or being read). */
async function settled(dir: string, persona = 'main'): Promise<FolderWatch> {
  return waitFor(
    async () => {
      const w = await watchOf(dir, persona);
      return w && w.counts.pending === 0 && w.counts.ingesting === 0 && w;
    },
    `the watch of ${dir} to settle`,
    30_000,
    { events: core.events, on: ['knowledge.watch'] },
  );
}

async function chunkTexts(source: string): Promise<string[]> {
  const { rows } = await core.ctx.db.query<{ content: string }>(
    'SELECT content FROM knowledge_chunks WHERE persona = $1 AND source = $2 ORDER BY chunk_index',
    ['main', source],
  );
  return rows.map((r) => r.content);
}

describe('watched folders', () => {
  it('ingests the folder recursively, skipping hidden folders and other files, and finds a new file by recall within 10 s', async () => {
    const dir = folder('vault', {
      'garden.md': '# Garden\n\nThe tomatoes need watering every evening in July.',
      'notes/deep/lighthouse.txt': 'The lighthouse keeper logs the foghorn hours.',
      '.obsidian/config.md': 'hiddenword configuration',
      '.secret.md': 'hiddenword in a hidden file',
      'photo.png': 'not a document',
    });
    const w = await core.call('knowledge.watch', { persona: 'main', folder: dir });
    expect(w).toMatchObject({ folder: dir, label: 'vault', status: 'watching' });
    await settled(dir);
    expect(await sources()).toEqual(['vault/garden.md', 'vault/notes/deep/lighthouse.txt']);
    expect(await found('hiddenword')).toEqual([]);

    put(dir, 'notes/quince.md', 'Quince jelly sets best with a squeeze of lemon.');
    // The bound a person notices: a new file answers recall within 10 s of being saved.
    await waitFor(async () => (await found('quince jelly lemon')).includes('vault/notes/quince.md'), 'the new file in recall', 10_000);
    expect((await watchOf(dir)).files.find((f) => f.path === 'notes/quince.md')).toMatchObject({ state: 'ingested', error: null });
  }, 60_000);

  it('an edit replaces the file\'s chunks; a touch or a save without changes reads nothing', async () => {
    const dir = folder('edits', { 'plan.md': 'The old plan mentions zeppelins.', 'other.md': 'Another note.' });
    await core.call('knowledge.watch', { persona: 'main', folder: dir });
    await settled(dir);
    const before = await core.call('knowledge.listSources', { persona: 'main' });
    const ingestedAt = before.find((s) => s.source === 'edits/plan.md')!.ingestedAt;

    // Touched and saved unchanged, then another file written: files are read in the order they settle,
    // so once the other one is in, the touched one has been looked at.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'plan.md'), later, later);
    writeFileSync(join(dir, 'plan.md'), 'The old plan mentions zeppelins.');
    put(dir, 'marker.md', 'A marker note about walruses.');
    await waitFor(async () => (await sources()).includes('edits/marker.md'), 'the marker file', 20_000);
    await settled(dir);
    const after = await core.call('knowledge.listSources', { persona: 'main' });
    expect(after.find((s) => s.source === 'edits/plan.md')!.ingestedAt).toBe(ingestedAt);

    writeFileSync(join(dir, 'plan.md'), 'The new plan prefers hot-air balloons.');
    await waitFor(async () => (await found('balloons')).includes('edits/plan.md'), 'the edit in recall', 20_000);
    expect(await chunkTexts('edits/plan.md')).toEqual(['The new plan prefers hot-air balloons.']);
    expect(await found('zeppelins')).toEqual([]);
  }, 60_000);

  it('a deleted or renamed file\'s source goes to the trash; a damaged PDF is named and the rest go on', async () => {
    const dir = folder('papers', {
      'keep.md': 'The archive keeps the letters of 1848.',
      'gone.md': 'The pelican migration note.',
      'old-name.md': 'A note about marmalade recipes.',
      'broken.pdf': makeCorruptPdf(),
    });
    await core.call('knowledge.watch', { persona: 'main', folder: dir });
    const w = await settled(dir);
    expect(w.counts).toMatchObject({ ingested: 3, error: 1 });
    expect(w.files[0]).toMatchObject({ path: 'broken.pdf', state: 'error' });
    expect(w.files[0]!.error).toContain('broken.pdf');

    unlinkSync(join(dir, 'gone.md'));
    renameSync(join(dir, 'old-name.md'), join(dir, 'new-name.md'));
    await waitFor(
      async () => {
        const s = await sources();
        return !s.includes('papers/gone.md') && !s.includes('papers/old-name.md') && s.includes('papers/new-name.md');
      },
      'the deletion and the rename',
      20_000,
    );
    const trash = await core.call('trash.list', { persona: 'main' });
    expect(trash.map((t) => t.key)).toEqual(expect.arrayContaining(['papers/gone.md', 'papers/old-name.md']));
    expect(await found('pelican migration')).toEqual([]);
    expect(await found('marmalade')).toEqual(['papers/new-name.md']);
    // The broken file, once gone, leaves no trace: it never became a source.
    unlinkSync(join(dir, 'broken.pdf'));
    await waitFor(async () => (await watchOf(dir)).counts.error === 0, 'the broken file to go', 20_000);
  }, 60_000);

  it('picks up at start what changed while Hearth was closed (new, changed, deleted), and unwatch stops it', async () => {
    const dir = folder('offline', { 'stays.md': 'Unchanged note about otters.', 'edit.md': 'Version one mentions kestrels.', 'drop.md': 'A note about puffins.' });
    await core.call('knowledge.watch', { persona: 'main', folder: dir });
    await settled(dir);
    await core.close();

    put(dir, 'added.md', 'Added while closed: a note about narwhals.');
    writeFileSync(join(dir, 'edit.md'), 'Version two mentions ospreys.');
    unlinkSync(join(dir, 'drop.md'));
    core = await open();
    await waitFor(
      async () => {
        const s = await sources();
        return s.includes('offline/added.md') && !s.includes('offline/drop.md') && (await found('ospreys')).includes('offline/edit.md');
      },
      'the changes made while closed',
      30_000,
    );
    expect(await found('kestrels')).toEqual([]);
    expect((await core.call('trash.list', { persona: 'main' })).map((t) => t.key)).toContain('offline/drop.md');

    expect(await core.call('knowledge.unwatch', { persona: 'main', folder: dir })).toEqual({ unwatched: true });
    expect((await core.call('knowledge.watches', { persona: 'main' })).watches.map((w) => w.folder)).not.toContain(dir);
    // What was ingested stays; the folder is no longer followed.
    expect(await sources()).toContain('offline/stays.md');
  }, 90_000);

  it('a folder that disappears as a whole removes nothing, and is followed again once it is back', async () => {
    const files = { 'a.md': 'A note about the ferry timetable.', 'b/c.md': 'A note about the harbour lights.' };
    const dir = folder('drive', files);
    await core.call('knowledge.watch', { persona: 'main', folder: dir });
    await settled(dir);
    rmSync(dir, { recursive: true });
    await waitFor(async () => (await watchOf(dir)).status === 'missing', 'the watch to see its folder gone', 20_000);
    expect(await sources()).toEqual(expect.arrayContaining(['drive/a.md', 'drive/b/c.md']));
    expect((await core.call('trash.list', { persona: 'main' })).map((t) => t.key)).not.toContain('drive/a.md');

    folder('drive', { ...files, 'new.md': 'Plugged back in with a note about lanterns.' });
    await waitFor(async () => (await found('lanterns')).includes('drive/new.md'), 'the folder followed again', 20_000);
    expect((await watchOf(dir)).status).toBe('watching');
    put(dir, 'later.md', 'Written after it came back: a note about compasses.');
    await waitFor(async () => (await found('compasses')).includes('drive/later.md'), 'a change after it came back', 20_000);
  }, 60_000);

  it('refuses a folder outside the launch folders, also through a symlink, and overlapping watches', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-outside-')));
    try {
      writeFileSync(join(outside, 'private.md'), 'Not to be read.');
      const refused = await core.dispatch('knowledge.watch', { persona: 'main', folder: outside });
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(!refused.ok && refused.error.message).toMatch(/not inside the folders this Hearth was started with/);
      symlinkSync(outside, join(root, 'link'));
      const viaLink = await core.dispatch('knowledge.watch', { persona: 'main', folder: join(root, 'link') });
      expect(viaLink).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      const nested = await core.dispatch('knowledge.watch', { persona: 'main', folder: folder('vault/notes') });
      expect(nested).toMatchObject({ ok: false, error: { code: 'conflict' } });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('emptying the persona ends its watches', async () => {
    expect((await core.call('knowledge.watches', { persona: 'main' })).watches.length).toBeGreaterThan(0);
    await core.call('personas.delete', { id: 'main', confirm: 'main' });
    expect((await core.call('knowledge.watches', { persona: 'main' })).watches).toEqual([]);
    expect(await sources()).toEqual([]);
  });
});
