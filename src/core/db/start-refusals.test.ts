// Every refusal at start names what is damaged and the newest backup, in words
// (docs/data-safety.md, "Refusals at start"): one healthy folder with a verified
// backup, copied and damaged the way disks and people damage them.
import {
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore } from '../testing/core';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk';

let healthy = '';
let backupId = '';
const made: string[] = [];

beforeAll(async () => {
  const core = await makeTestCore();
  for (let i = 0; i < 5; i++) await core.call('memories.write', { persona: 'main', content: `kept memory ${i}` });
  backupId = (await core.call('backups.create', {})).id;
  await core.close();
  healthy = core.dataDir;
}, 300_000);

afterAll(() => {
  for (const d of [healthy, ...made]) if (d) rmSync(d, { recursive: true, force: true });
});

function copy(into = tmpdir()): string {
  const dir = mkdtempSync(join(into, 'hearth-refused-'));
  cpSync(healthy, dir, { recursive: true });
  made.push(dir);
  return dir;
}

/** Every file's path and bytes under dir: "nothing was changed" is checked, not assumed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, rel);
    out.set(rel, statSync(p).isDirectory() ? 'dir' : readFileSync(p).toString('base64'));
  }
  return out;
}

const pg = (dir: string, rel: string) => join(dir, 'pgdata', rel);
const newest = () => new RegExp(`newest backup is ${backupId} \\(taken .* UTC, holding 5 memories in 1 persona`);

const damages: [string, (dir: string) => void, RegExp][] = [
  [
    'pg_control damaged at its normal size',
    (d) => {
      const fd = openSync(pg(d, 'global/pg_control'), 'r+');
      writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, 40);
      closeSync(fd);
    },
    /control file \(global\/pg_control\) is damaged \(its checksum does not match\)/,
  ],
  ['pg_xact/0000 deleted', (d) => unlinkSync(pg(d, 'pg_xact/0000')), /commit log \(pg_xact\) is missing/],
  ['base/5 deleted', (d) => rmSync(pg(d, 'base/5'), { recursive: true }), /folder of its database "postgres" \(base\/5\) is missing/],
  ['pg_filenode.map garbage', (d) => writeFileSync(pg(d, 'global/pg_filenode.map'), Buffer.alloc(524, 0x5a)), /relation map \(global\/pg_filenode\.map\) is damaged/],
  [
    'pg_wal emptied',
    (d) => {
      for (const f of readdirSync(pg(d, 'pg_wal'))) rmSync(pg(d, `pg_wal/${f}`), { recursive: true });
    },
    /write-ahead log \(pg_wal\) is empty/,
  ],
  ['pg_xact zeroed', (d) => writeFileSync(pg(d, 'pg_xact/0000'), Buffer.alloc(statSync(pg(d, 'pg_xact/0000')).size)), /commit log \(pg_xact\/0000\) is blank/],
];

describe('refusals at start', () => {
  for (const [name, damage, says] of damages) {
    it(`${name}: refused before opening, naming the damage and the newest backup; no file changed`, async () => {
      const dir = copy();
      damage(dir);
      const before = snapshot(dir);
      await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
        code: 'data_damaged',
        message: expect.stringMatching(says),
        details: { newestBackup: { id: backupId } },
      });
      await expect(createCore({ dataDir: dir })).rejects.toMatchObject({ message: expect.stringMatching(newest()) });
      expect(snapshot(dir)).toEqual(before);
    }, 120_000);
  }

  it('damage the checks before opening do not read (pg_class deleted) is still told in words, with the newest backup', async () => {
    const dir = copy();
    unlinkSync(pg(dir, 'base/5/1259'));
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
      code: 'data_damaged',
      message: expect.stringMatching(/pass the checks made before opening, but opening them failed \(PGlite failed to initialize properly\)/),
    });
    await expect(createCore({ dataDir: dir })).rejects.toMatchObject({ message: expect.stringMatching(newest()) });
  }, 120_000);

  it('a data folder that is a file, or that belongs to another user, is refused in words and left alone', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hearth-refused-')), 'data');
    made.push(join(file, '..'));
    writeFileSync(file, 'not a folder');
    await expect(createCore({ dataDir: file })).rejects.toMatchObject({
      code: 'data_damaged',
      message: expect.stringMatching(/data folder .* is a file, not a folder.*Nothing was changed or deleted/s),
    });
    expect(readFileSync(file, 'utf8')).toBe('not a folder');

    const dir = copy();
    const owner = statSync(dir).uid;
    chownSync(dir, owner + 4242, statSync(dir).gid);
    try {
      await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
        code: 'forbidden',
        message: expect.stringMatching(new RegExp(`belongs to another user \\(user id ${owner + 4242}\\).*Its ${newest().source}`, 's')),
      });
      expect(statSync(dir).mode & 0o777).toBe(statSync(healthy).mode & 0o777);
    } finally {
      chownSync(dir, owner, statSync(dir).gid);
    }
  }, 120_000);

  it('a damaged database can be answered with the newest backup: restored, the damaged files kept aside', async () => {
    const dir = copy();
    damages[0]![1](dir);
    const damagedControl = readFileSync(pg(dir, 'global/pg_control'));
    const core = await createCore({ dataDir: dir, restoreBackup: 'newest', dailyBackups: false, startupCheckDelayMs: null });
    try {
      expect((await core.call('memories.list', { persona: 'main', limit: 10 })).items).toHaveLength(5);
      const aside = readdirSync(dir).filter((n) => n.startsWith('pgdata.damaged-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir, aside[0]!, 'global/pg_control'))).toEqual(damagedControl);
      expect((await core.call('app.info', {})).notices.join('\n')).toMatch(/damaged database was kept, unchanged, as .*pgdata\.damaged-/);
    } finally {
      await core.close();
    }
  }, 300_000);
});

describe('a restart on a disk that is still full', () => {
  let disk: SmallDisk | null = null;
  let mnt = '';
  beforeAll(() => {
    disk = mountSmallDisk();
    mnt = disk.dir;
  });
  afterAll(() => disk?.remove());

  it('is refused as disk_full in words, naming the newest backup; once space returns it opens with every memory', async () => {
    const dir = copy(mnt);
    const filler = join(mnt, 'filler');
    disk!.fill(filler);
    await expect(createCore({ dataDir: dir, dailyBackups: false })).rejects.toMatchObject({
      code: 'disk_full',
      message: expect.stringMatching(new RegExp(`disk holding Hearth's data folder .* is full.*Free some space.*nothing was changed.*Its ${newest().source}`, 's')),
    });
    rmSync(filler);
    // Nothing left behind: no lock, no half-written temporary of one.
    expect(readdirSync(dir).filter((n) => n.startsWith('hearth.lock'))).toEqual([]);
    const core = await createCore({ dataDir: dir, dailyBackups: false, startupCheckDelayMs: null });
    try {
      expect((await core.call('memories.list', { persona: 'main', limit: 10 })).items).toHaveLength(5);
    } finally {
      await core.close();
    }
  }, 300_000);
});
