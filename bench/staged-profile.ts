// Where placing imported (staged) vectors goes: N staged memories, then the
// cost of tagging rows a batch at a time at several graph sizes, with the HNSW
// graph in place and without it (what every other index costs the same
// UPDATE), and what building the graph at once costs.
//   npx tsx bench/staged-profile.ts [--n 20000]
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCore } from '../src/core/testing/core';
import { importBenchPersona } from './export-data';
import { placeStagedVectors } from '../src/core/embeddings/staged';

const arg = (n: string, d: string) => { const i = process.argv.indexOf(`--${n}`); return i >= 0 ? process.argv[i + 1]! : d; };
const N = Number(arg('n', '20000'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

async function main() {
  const core = await makeTestCore();
  const db = core.ctx.db;
  const model = core.ctx.embedder.model();
  await importBenchPersona(core, N, 0, join(tmpdir(), `hearth-staged-${process.pid}.hearth`));
  console.log(`staged ${N}; load ${load()}`);
  const ids = (await db.query<{ id: string }>(`SELECT id FROM memories WHERE persona = 'bench' ORDER BY seq`)).rows.map((r) => r.id);
  const place = async (batch: string[]) => {
    const t = performance.now();
    const c = process.cpuUsage();
    await db.query(`UPDATE memories SET embedding_model = staged_model, staged_model = NULL WHERE id = ANY($1::uuid[]) AND staged_model = $2`, [batch, model]);
    const u = process.cpuUsage(c);
    return { ms: performance.now() - t, cpu: (u.user + u.system) / 1000 };
  };
  const B = 64;
  let at = 0;
  const step = async (label: string, rows: number) => {
    let ms = 0, cpu = 0;
    for (let i = 0; i < rows; i += B) { const r = await place(ids.slice(at, at + B)); at += B; ms += r.ms; cpu += r.cpu; }
    console.log(`${label}: ${rows} rows at graph ${at - rows}: ${(ms / rows).toFixed(2)} ms/row wall, ${(cpu / rows).toFixed(2)} ms/row CPU; load ${load()}`);
  };
  await step('graph small', 640);
  // The embeddings job's way: 64 rows a job, paced statements.
  {
    const t = performance.now();
    const c = process.cpuUsage();
    for (let j = 0; j < 10; j++) {
      const rows = ids.slice(at, at + 64).map((id) => ({ id, persona: 'bench', content: '', source: null }));
      at += 64;
      await placeStagedVectors(db, 'memory', rows, model);
    }
    const u = process.cpuUsage(c);
    console.log(`jobs (placeStagedVectors): 640 rows: ${((performance.now() - t) / 640).toFixed(2)} ms/row wall, ${((u.user + u.system) / 1000 / 640).toFixed(2)} ms/row CPU; load ${load()}`);
  }
  await step('graph small again', 640);
  // Without the local graph: what the UPDATE costs in every other index.
  await db.exec(`DROP INDEX memories_embedding_local_idx`);
  await step('no HNSW', 640);
  // Tag most rows with no graph, then build it at once.
  const rest = ids.slice(at, at + Math.floor((N - at) * 0.9));
  let t = performance.now();
  for (let i = 0; i < rest.length; i += 2000) await place(rest.slice(i, i + 2000));
  at += rest.length;
  console.log(`tagging ${rest.length} rows 2000 a statement with no graph: ${((performance.now() - t) / rest.length).toFixed(2)} ms/row; load ${load()}`);
  t = performance.now();
  await db.exec(`SET maintenance_work_mem = '512MB'`);
  await db.exec(`CREATE INDEX memories_embedding_local_idx ON memories USING hnsw ((subvector(embedding, 1, 512)::vector(512)) vector_cosine_ops) WHERE embedding_model = 'local:use-lite-512'`);
  const n = at;
  console.log(`building the graph over ${n} rows: ${((performance.now() - t) / 1000).toFixed(1)} s (${((performance.now() - t) / n).toFixed(2)} ms/row); load ${load()}`);
  await db.exec(`RESET maintenance_work_mem`);
  await step('graph big', 640);
  await core.dispose();
}
main().catch((e) => { console.error(e); process.exit(1); });
