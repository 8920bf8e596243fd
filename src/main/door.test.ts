import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFixture, type IngestFixture } from '../core/testing/knowledge-fixture';
import { type Dispatch, pageDoor } from './door';
import { GrantedPaths } from './granted-paths';

let f: IngestFixture;
let dir: string;
let grants: GrantedPaths;
let door: Dispatch;

beforeAll(async () => {
  f = await ingestFixture();
  dir = mkdtempSync(join(tmpdir(), 'hearth-door-'));
  grants = new GrantedPaths();
  door = pageDoor(f.core.dispatch, grants);
});
afterAll(async () => {
  await f?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const ingest = (path: string) => door('knowledge.ingest', { persona: 'main', path });

/** Runs a call and says how long it took: a FIFO that was opened would hang it. */
async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await p;
  return { value, ms: performance.now() - t0 };
}

describe('Electron: the page may name only files the user dropped or picked', () => {
  it('refuses every path not granted in this session with one answer, without touching the disk', async () => {
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'The vault code is 4711.');
    const fifo = join(dir, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const answers = [];
    for (const path of [secret, join(dir, 'missing.txt'), fifo, '/etc/passwd', 'relative.txt', 42]) {
      const { value, ms } = await timed(door('knowledge.ingest', { persona: 'main', path }));
      expect(ms, String(path)).toBeLessThan(5_000);
      answers.push(value);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/dropped or picked/) } });
    expect((await f.core.call('jobs.list', { queue: 'ingest' })).jobs).toEqual([]);
  });

  it('ingests a granted file; a path that only resolves to a granted one is not granted', async () => {
    const sub = join(dir, 'notes');
    mkdirSync(sub);
    const file = join(sub, 'heron.txt');
    writeFileSync(file, 'Grey herons nest in colonies called heronries.');
    expect(grants.grant(file)).toBe(true);
    const ok = await ingest(file);
    expect(ok).toMatchObject({ ok: true, data: { source: 'heron.txt' } });
    const job = await f.settled((ok as { data: { jobId: string } }).data.jobId);
    expect(job.state).toBe('completed');
    // Spelled another way (through "..", which a symlinked folder would send elsewhere): refused.
    for (const other of [`${dir}/./notes/heron.txt`, `${dir}/notes/../notes/heron.txt`]) {
      expect(await ingest(other), other).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(grants.grant('relative/path.txt')).toBe(false);
    expect(grants.grant(`/tmp/a\0b.txt`)).toBe(false);
  });

  it('refuses granted special files before opening them: FIFO, socket, device, folder, and a link to a FIFO', async () => {
    const fifo = join(dir, 'granted-pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const link = join(dir, 'link-to-pipe.txt');
    symlinkSync(fifo, link);
    const folder = join(dir, 'folder.txt');
    mkdirSync(folder);
    const socketDir = mkdtempSync(join(tmpdir(), 'hearth-sock-'));
    const socket = join(socketDir, 's.txt');
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((r) => server.listen(socket, r));
    try {
      const cases: [string, RegExp][] = [
        [fifo, /named pipe/],
        [link, /named pipe/],
        [socket, /socket/],
        ['/dev/zero', /device/],
        [folder, /folder/],
      ];
      for (const [path, what] of cases) {
        grants.grant(path);
        const { value, ms } = await timed(ingest(path));
        expect(ms, path).toBeLessThan(5_000);
        expect(value, path).toMatchObject({ ok: false, error: { code: 'unsupported_type', message: expect.stringMatching(what) } });
      }
    } finally {
      server.close();
      rmSync(socketDir, { recursive: true, force: true });
    }
  });

  it('the core itself never opens a FIFO, whoever asks (the chat tool goes straight to the core)', async () => {
    const fifo = join(dir, 'core-pipe.md');
    execFileSync('mkfifo', [fifo]);
    const { value, ms } = await timed(f.core.dispatch('knowledge.ingest', { persona: 'main', path: fifo }));
    expect(ms).toBeLessThan(5_000);
    expect(value).toMatchObject({ ok: false, error: { code: 'unsupported_type', message: expect.stringMatching(/named pipe/) } });
  });
});

describe('Electron: a folder to watch is one the user picked', () => {
  it('refuses a folder not picked in this session and watches a picked one', async () => {
    const picked = join(dir, 'picked');
    mkdirSync(picked);
    expect(await door('knowledge.watch', { persona: 'main', folder: picked })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await f.core.call('knowledge.watches', { persona: 'main' })).toEqual({ watches: [], allowedDirs: null });
    grants.grant(picked);
    expect(await door('knowledge.watch', { persona: 'main', folder: picked })).toMatchObject({ ok: true, data: { label: 'picked', status: 'watching' } });
    expect(await door('knowledge.unwatch', { persona: 'main', folder: picked })).toMatchObject({ ok: true, data: { unwatched: true } });
  });
});
