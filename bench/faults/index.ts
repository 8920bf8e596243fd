// npm run bench:faults -- [--json FILE] [--quick] [--only NAME[,NAME]] [--trials N]
// Runs every section in bench/faults/sections/ (each: { name, run(opts) }) one after the other,
// prints each section's figures with the load average (the machine is shared: figures measured under
// load say so), and writes them all to FILE.
import { readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { FaultSection } from './section';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    trials: { type: 'string' },
  },
});
const only = values.only ? new Set(values.only.split(',')) : null;
const trials = values.trials ? Number(values.trials) : undefined;
if (trials !== undefined && !(Number.isInteger(trials) && trials > 0)) throw new Error('--trials must be a positive whole number');

const dir = join(dirname(fileURLToPath(import.meta.url)), 'sections');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const out: Record<string, unknown> = { quick: values.quick, startedAt: new Date().toISOString(), sections: {} };
const sections = out.sections as Record<string, unknown>;

for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort()) {
  const section = (await import(pathToFileURL(join(dir, file)).href)).default as FaultSection;
  if (only && !only.has(section.name)) continue;
  const loadBefore = load();
  const t = Date.now();
  process.stderr.write(`${section.name}: running (load average ${loadBefore})…\n`);
  try {
    const figures = await section.run({ quick: values.quick, ...(trials ? { trials } : {}) });
    const record = { ...figures, seconds: Math.round((Date.now() - t) / 1000), loadBefore, loadAfter: load() };
    sections[section.name] = record;
    console.log(`\n${section.name}`);
    for (const [k, v] of Object.entries(record)) console.log(`  ${k}: ${v}`);
  } catch (e) {
    sections[section.name] = { error: (e as Error).message };
    console.log(`\n${section.name}: FAILED: ${(e as Error).stack}`);
    process.exitCode = 1;
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(out, null, 2)}\n`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(out, null, 2)}\n`);
