// `npm run bench:faults -- [--quick] [--json FILE] [--only NAME[,NAME]] [--trials N] [--memories N] [--rounds N] [--host-rounds N] [--point-timeout S] [--quiet-ms MS] [--start-rounds N] [--start-seed N]`
// Runs every section in bench/faults/sections/*.ts (each: { name, run(opts) }) and
// prints its figures with the load average (a busy 2-core machine skews them).
import { readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface FaultOptions {
  quick: boolean;
  /** Extra flags, as given (sections read their own). */
  flags: Record<string, string | boolean | undefined>;
  /** --trials N: the number of trials (crash points, kills) instead of a section's default. */
  trials?: number;
}

export interface FaultSection {
  name: string;
  run(opts: FaultOptions): Promise<Record<string, number | string>>;
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    only: { type: 'string' },
    memories: { type: 'string' },
    rounds: { type: 'string' },
    'host-rounds': { type: 'string' },
    'point-timeout': { type: 'string' },
    'quiet-ms': { type: 'string' },
    trials: { type: 'string' },
    'start-rounds': { type: 'string' },
    'start-seed': { type: 'string' },
  },
  allowPositionals: true,
});

const only = values.only ? new Set(values.only.split(',')) : null;
const trials = values.trials ? Number(values.trials) : undefined;
if (trials !== undefined && !(Number.isInteger(trials) && trials > 0)) throw new Error('--trials must be a positive whole number');
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const dir = join(import.meta.dirname, 'sections');
const out: Record<string, Record<string, number | string>> = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
  const section = ((await import(pathToFileURL(join(dir, file)).href)) as { default: FaultSection }).default;
  if (only && !only.has(section.name)) continue;
  const before = load();
  const t0 = performance.now();
  try {
    const figures = await section.run({ quick: values.quick ?? false, flags: values, ...(trials ? { trials } : {}) });
    out[section.name] = { ...figures, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), loadBefore: before, loadAfter: load() };
  } catch (e) {
    out[section.name] = { error: e instanceof Error ? e.message : String(e), loadBefore: before, loadAfter: load() };
  }
  console.log(`\n## ${section.name}`);
  for (const [k, v] of Object.entries(out[section.name]!)) console.log(`  ${k}: ${v}`);
  // Written after each section: a long run that is stopped keeps what it measured.
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 2));
}
if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 2));
process.exit(0);
