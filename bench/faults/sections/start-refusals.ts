// Damaged, missing and unusable data folders beside a verified backup, opened as the app opens them
// (docs/data-safety.md, "Refusals at start"). Each case must end refused with a message naming the
// damage and the newest backup, or started with a notice naming both; never started short and silent
// ("silent reset"), and a refused folder's files must be byte for byte as before. Then the cost of the
// check at start (db/startup-check.ts, checkFirstReads) at --memories N (default 10,000).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../../src/core/index';
import { checkFirstReads } from '../../../src/core/db/startup-check';
import { isAppError } from '../../../src/shared/errors';
import type { FaultSection } from '../index';

const CASE_MEMORIES = 300;

function overwrite(file: string, block: number, fill: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(8192, fill), 0, 8192, block * 8192);
  } finally {
    closeSync(fd);
  }
}

/** Every file's path and a hash of its bytes: "data unchanged" is measured, not assumed. */
function digest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, rel);
    out.set(rel, statSync(p).isFile() ? createHash('sha256').update(readFileSync(p)).digest('hex') : 'dir');
  }
  return out;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}

function fill(mnt: string): string {
  const filler = join(mnt, 'filler');
  const s = statfsSync(mnt);
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (let left = s.bavail * s.bsize; left > 0; left -= chunk.length) {
      try {
        writeSync(fd, chunk, 0, Math.min(chunk.length, left));
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

const section: FaultSection = {
  name: 'start-refusals',
  async run(opts) {
    const scaleMemories = Number(opts.flags.memories ?? (opts.quick ? 2000 : 10_000));
    const healthy = mkdtempSync(join(tmpdir(), 'hearth-faults-refusals-'));
    const made: string[] = [healthy];
    let mnt = '';
    try {
      const core = await createCore({ dataDir: healthy, dailyBackups: false, startupCheckDelayMs: null });
      await core.ctx.db.exec(
        `INSERT INTO memories (persona, content, day) SELECT 'main', 'kept ' || g || ' ' || repeat('m', 200), '2026-01-01' FROM generate_series(1, ${CASE_MEMORIES}) g`,
      );
      const backup = await core.call('backups.create', {});
      const memoriesFile = (await core.ctx.db.query<{ f: string }>(`SELECT pg_relation_filepath('memories') AS f`)).rows[0]!.f;
      await core.close();
      const pg = (dir: string, rel: string) => join(dir, 'pgdata', rel);

      const cases: [string, (dir: string) => void][] = [
        ['pgdata missing', (d) => rmSync(join(d, 'pgdata'), { recursive: true })],
        ['pgdata empty', (d) => (rmSync(join(d, 'pgdata'), { recursive: true }), mkdirSync(join(d, 'pgdata')))],
        ['pg_control damaged at its normal size', (d) => {
          const fd = openSync(pg(d, 'global/pg_control'), 'r+');
          writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, 40);
          closeSync(fd);
        }],
        ['pg_xact/0000 deleted', (d) => unlinkSync(pg(d, 'pg_xact/0000'))],
        ['base/5 deleted', (d) => rmSync(pg(d, 'base/5'), { recursive: true })],
        ['pg_filenode.map garbage', (d) => writeFileSync(pg(d, 'global/pg_filenode.map'), Buffer.alloc(524, 0x5a))],
        ['pg_wal emptied', (d) => { for (const f of readdirSync(pg(d, 'pg_wal'))) rmSync(pg(d, `pg_wal/${f}`), { recursive: true }); }],
        ['pg_xact zeroed', (d) => writeFileSync(pg(d, 'pg_xact/0000'), Buffer.alloc(statSync(pg(d, 'pg_xact/0000')).size))],
        ['pg_class file deleted', (d) => unlinkSync(pg(d, 'base/5/1259'))],
        ['garbage page in memories', (d) => overwrite(pg(d, memoriesFile), 0, 0x5a)],
        ['zeroed page in memories', (d) => overwrite(pg(d, memoriesFile), 1, 0)],
        ['data folder owned by another user', (d) => chownSync(d, statSync(d).uid + 4242, statSync(d).gid)],
      ];
      const namesBackup = (text: string) => text.includes(backup.id);
      let refusedInWords = 0;
      let startedWithNotice = 0;
      let silentResets = 0;
      let rawErrors = 0;
      let changed = 0;
      let bookkeepingOnly = 0;
      const outcomes: string[] = [];
      const runCase = async (name: string, dir: string, target: string) => {
        const before = digest(target);
        const t0 = performance.now();
        try {
          const c = await createCore({ dataDir: dir, dailyBackups: false, startupCheckDelayMs: null });
          try {
            // -1: reading the memories fails (a damaged page): the person sees that, with the notice.
            const n = await c.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories`).then((r) => r.rows[0]!.n, () => -1);
            const notices = (await c.call('app.info', {})).notices;
            if (notices.some(namesBackup)) startedWithNotice++;
            else if (n !== CASE_MEMORIES) silentResets++;
            outcomes.push(`${name}: started, ${n < 0 ? 'memories unreadable' : `${n} memories`}, ${notices.length ? `notice: ${notices[0]!.slice(0, 110)}…` : 'no notice'}`);
          } finally {
            await c.close();
          }
        } catch (e) {
          const inWords = isAppError(e) && e.code !== 'internal' && namesBackup(e.message);
          if (inWords) refusedInWords++;
          else rawErrors++;
          const diff = changedFiles(before, digest(target));
          // A table's or an index's file, or a backup: the person's data. Anything else is Postgres' own
          // bookkeeping (pg_control, pg_internal.init, a WAL segment), which it rewrites when it tries to open.
          if (diff.some((f) => /^(pgdata\/base\/\d+\/\d+(\.\d+)?|backups\/.*)$/.test(f))) changed++;
          else if (diff.length) bookkeepingOnly++;
          outcomes.push(
            `${name}: refused in ${Math.round(performance.now() - t0)} ms (${isAppError(e) ? e.code : 'raw'}${diff.length ? `; files changed: ${diff.slice(0, 6).join(', ')}` : ''}): ${(e as Error).message.slice(0, 110)}…`,
          );
        }
      };
      for (const [name, damage] of cases) {
        const dir = mkdtempSync(join(tmpdir(), 'hearth-faults-refused-'));
        made.push(dir);
        cpSync(healthy, dir, { recursive: true });
        damage(dir);
        await runCase(name, dir, dir);
      }
      // A data folder that is a file has no backup inside it to name: counted apart.
      const fileDir = join(mkdtempSync(join(tmpdir(), 'hearth-faults-refused-')), 'data');
      made.push(join(fileDir, '..'));
      writeFileSync(fileDir, 'x');
      let fileRefusedInWords = 0;
      try {
        await (await createCore({ dataDir: fileDir })).close();
      } catch (e) {
        if (isAppError(e) && /is a file, not a folder/.test(e.message) && readFileSync(fileDir, 'utf8') === 'x') fileRefusedInWords = 1;
      }
      // A restart on a disk that is still full (a small tmpfs; needs root, skipped with its reason otherwise).
      let diskFull = 'skipped';
      try {
        mnt = mkdtempSync(join(tmpdir(), 'hearth-faults-tmpfs-'));
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m,mode=0700', 'tmpfs', mnt], { stdio: 'ignore' });
        const dir = join(mnt, 'data');
        cpSync(healthy, dir, { recursive: true });
        const filler = fill(mnt);
        await runCase('restart on a still-full disk', dir, dir);
        rmSync(filler);
        const c = await createCore({ dataDir: dir, dailyBackups: false, startupCheckDelayMs: null });
        const n = (await c.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories`)).rows[0]!.n;
        await c.close();
        diskFull = n === CASE_MEMORIES ? 'refused, then opened whole once space returned' : `opened with ${n} memories`;
      } catch (e) {
        diskFull = `skipped: ${(e as Error).message.slice(0, 80)}`;
      }
      for (const o of outcomes) process.stderr.write(`  ${o}\n`);

      // The check at start at scale: the same folder opened, then checkFirstReads timed on it.
      const big = mkdtempSync(join(tmpdir(), 'hearth-faults-firstreads-'));
      made.push(big);
      const b = await createCore({ dataDir: big, dailyBackups: false, startupCheckDelayMs: null });
      await b.ctx.db.exec(
        `INSERT INTO memories (persona, content, day, embedding, embedding_model)
         SELECT 'main', 'memory ' || g || ' ' || repeat('word ', 30), '2026-01-01', array_fill(0.01::real, ARRAY[1536])::vector, 'bench'
           FROM generate_series(1, ${scaleMemories}) g`,
      );
      await b.close();
      // Side by side in one run (the machine's load moves both): the whole start, and the check inside it.
      const times: number[] = [];
      const opens: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const c = await createCore({ dataDir: big, dailyBackups: false, startupCheckDelayMs: null });
        opens.push(performance.now() - t0);
        const t1 = performance.now();
        await checkFirstReads(c.ctx.db, big);
        times.push(performance.now() - t1);
        await c.close();
      }
      times.sort((x, y) => x - y);
      opens.sort((x, y) => x - y);
      return {
        cases: cases.length + 1 + (diskFull.startsWith('skipped') ? 0 : 1),
        refused_in_words_naming_backup: refusedInWords,
        started_with_notice_naming_backup: startedWithNotice,
        silent_resets: silentResets,
        raw_or_unnamed_refusals: rawErrors,
        refused_with_data_files_changed: changed,
        refused_with_only_postgres_bookkeeping_rewritten: bookkeepingOnly,
        file_as_data_folder_refused_in_words: fileRefusedInWords,
        disk_still_full: diskFull,
        first_read_check_memories: scaleMemories,
        first_read_check_ms_median: Math.round(times[2]!),
        first_read_check_ms_max: Math.round(times[4]!),
        start_with_check_ms_median: Math.round(opens[2]!),
      };
    } finally {
      if (mnt) {
        try {
          execFileSync('umount', [mnt], { stdio: 'ignore' });
        } catch {
          // not mounted
        }
        rmSync(mnt, { recursive: true, force: true });
      }
      for (const d of made) rmSync(d, { recursive: true, force: true });
    }
  },
};
export default section;
