import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, closeSync, utimesSync, writeFileSync, writeSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore } from '../testing/core';

// Real data folders, damaged the way disks and people damage them, then opened
// as the app opens them at start-up.
let healthy = '';
let jobsFile = '';
let memoriesFile = '';
const made: string[] = [];

beforeAll(async () => {
  const core = await makeTestCore();
  await core.ctx.db.exec(
    `INSERT INTO memories (persona, content, day) SELECT 'main', 'kept memory ' || g, '2026-01-01' FROM generate_series(1, 50) g`,
  );
  await core.ctx.db.exec(
    // Left 'running', as after a crash: start-up's job recovery reads them back.
    `INSERT INTO jobs (queue, state, args) SELECT 'compaction', 'running', jsonb_build_object('n', g, 'pad', repeat('p', 400))
       FROM generate_series(1, 200) g`,
  );
  const { rows } = await core.ctx.db.query<{ jobs: string; memories: string }>(
    `SELECT pg_relation_filepath('jobs') AS jobs, pg_relation_filepath('memories') AS memories`,
  );
  jobsFile = rows[0]!.jobs;
  memoriesFile = rows[0]!.memories;
  await core.close();
  healthy = core.dataDir;
}, 300_000);

afterAll(() => {
  for (const d of [healthy, ...made]) if (d) rmSync(d, { recursive: true, force: true });
});

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-damaged-'));
  cpSync(healthy, dir, { recursive: true });
  made.push(dir);
  return dir;
}

function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('never start over silently', () => {
  it('refuses a pgdata without PG_VERSION, names the problem and the newest backup, and leaves every file as it was', async () => {
    const dir = copy();
    unlinkSync(join(dir, 'pgdata', 'PG_VERSION'));
    mkdirSync(join(dir, 'backups'));
    writeFileSync(join(dir, 'backups', '20260101T000000000Z-manual-aaaaaa.tar.gz'), 'older');
    writeFileSync(join(dir, 'backups', '20260201T000000000Z-manual-bbbbbb.tar.gz'), 'newer');
    utimesSync(join(dir, 'backups', '20260101T000000000Z-manual-aaaaaa.tar.gz'), new Date('2026-01-01'), new Date('2026-01-01'));
    // Each archive with its manifest (start-up sweeps away archives without one as unfinished).
    for (const id of ['20260101T000000000Z-manual-aaaaaa', '20260201T000000000Z-manual-bbbbbb']) writeFileSync(join(dir, 'backups', `${id}.json`), '{}');
    const before = listing(join(dir, 'pgdata'));
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
      code: 'data_damaged',
      message: expect.stringMatching(/PG_VERSION file is missing.*will not create a new database.*20260201T000000000Z-manual-bbbbbb\.tar\.gz/s),
    });
    expect(listing(join(dir, 'pgdata'))).toEqual(before);
    expect(existsSync(join(dir, 'pgdata', 'PG_VERSION'))).toBe(false);
  }, 300_000);

  it('refuses a pgdata whose control file is missing or cut short, and says there is no backup', async () => {
    const dir = copy();
    const control = join(dir, 'pgdata', 'global', 'pg_control');
    writeFileSync(control, readFileSync(control).subarray(0, 100));
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
      code: 'data_damaged',
      message: expect.stringMatching(/control file .* cut short.*no backup/s),
    });
    unlinkSync(control);
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({ message: expect.stringMatching(/control file .* missing/) });
  }, 300_000);

  it('moves a damaged secrets.json aside, starts, keeps every memory, and tells the person to re-enter keys', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'secrets.json'), '');
    const core = await createCore({ dataDir: dir });
    try {
      const info = await core.call('app.info', {});
      expect(info.notices.join('\n')).toMatch(/API keys \(secrets\.json\) was damaged; it was moved to .*secrets\.json\.damaged-.*enter your API keys again/);
      const aside = readdirSync(dir).filter((f) => f.startsWith('secrets.json.damaged-'));
      expect(aside).toHaveLength(1);
      expect((await core.call('settings.get', {})).chat.apiKey).toBe('not set');
      const { rows } = await core.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories`);
      expect(rows[0]?.n).toBe(50);
      // A key entered again is stored in a new, valid file.
      await core.call('settings.set', { chat: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-new-key-123456' } });
      expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toBeTypeOf('object');
    } finally {
      await core.close();
    }
  }, 300_000);

  it('a damaged page in jobs stops start-up with a message naming the table and offering restore, not a stack', async () => {
    const dir = copy();
    const fd = openSync(join(dir, 'pgdata', jobsFile), 'r+');
    writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, 0);
    closeSync(fd);
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
      code: 'data_damaged',
      message: expect.stringMatching(/the table jobs is damaged .*Nothing was changed or deleted/s),
    });
  }, 300_000);

  it('a garbage page in memories is found before the first call is answered: a notice names the table, and lists fail in words', async () => {
    const dir = copy();
    const fd = openSync(join(dir, 'pgdata', memoriesFile), 'r+');
    writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, 0);
    closeSync(fd);
    const core = await createCore({ dataDir: dir, startupCheckDelayMs: null });
    try {
      const notices = (await core.call('app.info', {})).notices;
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/could not read every page at start: the table memories is damaged .*Nothing was changed or deleted.*Settings → Data → Restore/s);
      // No path on this computer in what the page shows.
      expect(notices[0]).not.toContain(dir);
      for (const [method, args] of [['memories.list', { persona: 'main' }], ['personas.list', {}]] as const) {
        const res = await core.dispatch(method, args);
        expect(res).toMatchObject({ ok: false, error: { code: 'data_damaged', message: expect.stringMatching(/the table memories is damaged/) } });
      }
    } finally {
      await core.close();
    }
  }, 300_000);

  it('a zeroed page in memories, which reads as empty, is noticed before the first call is answered and named in a notice', async () => {
    // The healthy folder: the check runs and says nothing.
    const fine = await createCore({ dataDir: copy(), startupCheckDelayMs: 0 });
    try {
      await fine.startupChecked;
      expect((await fine.call('app.info', {})).notices).toEqual([]);
    } finally {
      await fine.close();
    }

    const dir = copy();
    const fd = openSync(join(dir, 'pgdata', memoriesFile), 'r+');
    writeSync(fd, Buffer.alloc(8192, 0), 0, 8192, 0);
    closeSync(fd);
    const core = await createCore({ dataDir: dir, startupCheckDelayMs: 0 });
    try {
      // Postgres reads the page as empty, not as an error: the rows are just gone from every list…
      expect((await core.call('memories.list', { persona: 'main', limit: 100 })).items).toHaveLength(0);
      // …and the first view already shows why.
      const notices = (await core.call('app.info', {})).notices;
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/damage .* at start: 50 of 50 rows of the table memories cannot be read.*Settings → Data → Restore/s);
      // The check after start does not say it twice.
      await core.startupChecked;
      expect((await core.call('app.info', {})).notices).toHaveLength(1);
    } finally {
      await core.close();
    }
  }, 300_000);
});
