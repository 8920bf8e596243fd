// Hostile files handed to import and ingest: each is generated here as a gzip or
// Flate stream (a few MB on disk standing for GiBs), never committed. For each:
// the time until it is refused, the process's RSS growth while it ran (sampled
// every 10 ms; the parse worker is a thread of this process), the answer, and
// whether the data is unchanged (every persona and memory row, hidden ones too).
// Targets (docs/export.md, "Limits"): refused within 5 s, RSS growth ≤ 100 MB.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { makeTestCore, type TestCore } from '../../../src/core/testing/core';
import { makeInflatingPdf } from '../../../src/core/testing/test-pdfs';
import type { FaultSection } from '../index';

const T = '2025-03-03T10:00:00.000000Z';
const header = JSON.stringify({ format: 'hearth-persona', version: 1, appVersion: '0.1.0', exportedAt: T, embeddingModel: 'x' });
const persona = JSON.stringify({ type: 'persona', id: 'hostile', name: 'Hostile', createdAt: T });

/** `n` MiB of `block` (1 MiB) as gzip members: one stream to a reader, ~1 kB a MiB on disk. */
function members(block: Buffer, n: number): Buffer {
  const member = gzipSync(block, { level: 9 });
  return Buffer.concat(Array.from({ length: n }, () => member));
}
const mib = (byte: number) => Buffer.alloc(1024 * 1024, byte);

/** A valid conversation record padded with spaces to 1 MiB: every line parses, so only the size limit stops it. */
function paddedConversation(): Buffer {
  const head = `{"type":"conversation","id":"${randomUUID()}","summary":"","memorySnapshot":null,"userMsgsSinceNudge":0,"createdAt":"${T}","updatedAt":"${T}"`;
  const line = Buffer.alloc(1024 * 1024, 0x20);
  line.write(head, 0, 'latin1');
  line.write('}\n', line.length - 2, 'latin1');
  return line;
}

async function rows(core: TestCore): Promise<string> {
  const { rows: r } = await core.ctx.db.query<{ p: number; m: number; c: number }>(
    'SELECT (SELECT count(*) FROM personas)::int AS p, (SELECT count(*) FROM memories)::int AS m, (SELECT count(*) FROM conversations)::int AS c',
  );
  return JSON.stringify(r[0]);
}

interface Case {
  name: string;
  /** Bytes on disk, and what they stand for. */
  make(dir: string): Promise<{ path: string; stands: string }>;
  run(core: TestCore, path: string): Promise<string>;
}

const viaImport = async (core: TestCore, path: string) => {
  const res = await core.dispatch('personas.import', { path });
  return res.ok ? 'ACCEPTED' : `${res.error.code}: ${res.error.message.slice(0, 90)}`;
};

const hearth = (name: string, stands: string, bytes: () => Buffer): Case => ({
  name,
  async make(dir) {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.hearth`);
    writeFileSync(path, bytes());
    return { path, stands };
  },
  run: viaImport,
});

const CASES: Case[] = [
  hearth('1 GiB of newlines', '1 GiB', () => Buffer.concat([gzipSync(`${header}\n${persona}\n`), members(mib(10), 1024)])),
  hearth('one 1 GiB line', '1 GiB', () => Buffer.concat([gzipSync(`${header}\n${persona}\n{"type":"memory","content":"`), members(mib(0x61), 1024)])),
  hearth('4 GiB of NUL bytes', '4 GiB', () => members(mib(0), 4096)),
  hearth('bad line 2, then 1 GiB', '1 GiB', () => Buffer.concat([gzipSync(`${header}\n{"type":"persona",\n`), members(mib(10), 1024)])),
  hearth('1 GiB of valid padded records', '1 GiB', () => Buffer.concat([gzipSync(`${header}\n${persona}\n`), members(paddedConversation(), 1024)])),
  {
    name: 'a 3 GiB file (sparse)',
    async make(dir) {
      const path = join(dir, 'huge.hearth');
      writeFileSync(path, gzipSync(header));
      truncateSync(path, 3 * 1024 ** 3);
      return { path, stands: '3 GiB' };
    },
    run: viaImport,
  },
  {
    name: 'PDF stream inflating to 1 GiB',
    async make(dir) {
      const path = join(dir, 'bomb.pdf');
      writeFileSync(path, await makeInflatingPdf(1024));
      return { path, stands: '1 GiB' };
    },
    async run(core, path) {
      try {
        await core.ctx.parser.parse(path, { kind: 'pdf', name: 'bomb.pdf' });
        return 'ACCEPTED';
      } catch (e) {
        return `${(e as { code?: string }).code}: ${(e as Error).message.slice(0, 90)}`;
      }
    },
  },
];

export default {
  name: 'hostile files',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-hostile-files-'));
    const core = await makeTestCore();
    const figures: Record<string, number | string> = {};
    const table: string[] = ['| file | on disk | stands for | refused in s | RSS growth MB | data unchanged | answer |', '|---|---|---|---|---|---|---|'];
    let worst = { s: 0, mb: 0, refused: 0, unchanged: 0 };
    try {
      for (const c of CASES) {
        const { path, stands } = await c.make(dir);
        const { size } = await import('node:fs/promises').then((fs) => fs.stat(path));
        const before = await rows(core);
        const base = process.memoryUsage.rss();
        let peak = base;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
        const t0 = performance.now();
        const answer = await c.run(core, path);
        const s = (performance.now() - t0) / 1000;
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage.rss());
        const growth = (peak - base) / 1e6;
        const unchanged = (await rows(core)) === before;
        const refused = !answer.startsWith('ACCEPTED');
        rmSync(path, { force: true });
        const onDisk = size > 1e9 ? `${(size / 1024 ** 3).toFixed(0)} GiB (sparse)` : `${(size / 1e6).toFixed(1)} MB`;
        table.push(`| ${c.name} | ${onDisk} | ${stands} | ${s.toFixed(2)} | ${growth.toFixed(0)} | ${unchanged ? 'yes' : 'NO'} | ${answer.replace(/\|/g, '/')} |`);
        figures[`${c.name}: s`] = Number(s.toFixed(2));
        figures[`${c.name}: RSS MB`] = Number(growth.toFixed(0));
        worst = { s: Math.max(worst.s, s), mb: Math.max(worst.mb, growth), refused: worst.refused + (refused ? 1 : 0), unchanged: worst.unchanged + (unchanged ? 1 : 0) };
      }
    } finally {
      await core.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(`\n${table.join('\n')}`);
    return {
      files: CASES.length,
      refused: worst.refused,
      'data unchanged': worst.unchanged,
      'slowest refusal s': Number(worst.s.toFixed(2)),
      'largest RSS growth MB': Number(worst.mb.toFixed(0)),
      ...figures,
    };
  },
} satisfies FaultSection;
