// `npm run bench:faults -- [--quick] [--json FILE] [--only NAME] [--memories N] [--rounds N] [--host-rounds N]`
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
  },
  allowPositionals: true,
});

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const dir = join(import.meta.dirname, 'sections');
const out: Record<string, Record<string, number | string>> = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
  const section = ((await import(pathToFileURL(join(dir, file)).href)) as { default: FaultSection }).default;
  if (values.only && section.name !== values.only) continue;
  const before = load();
  const t0 = performance.now();
  try {
    const figures = await section.run({ quick: values.quick ?? false, flags: values });
    out[section.name] = { ...figures, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), loadBefore: before, loadAfter: load() };
  } catch (e) {
    out[section.name] = { error: e instanceof Error ? e.message : String(e), loadBefore: before, loadAfter: load() };
  }
  console.log(`\n## ${section.name}`);
  for (const [k, v] of Object.entries(out[section.name]!)) console.log(`  ${k}: ${v}`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 2));
process.exit(0);
