// npm run bench:dedupe [-- --tune] [-- --verbose] [-- --tuning-only] [-- --rows 10000]
// The near-duplicate rule's precision and recall (bench/dedupe/rule.ts), then
// Tidy up's time at scale (bench/dedupe/tidy.ts).
import { ruleReport } from './rule';
import { tidyTiming } from './tidy';

const args = process.argv.slice(2);
const rowsAt = args.indexOf('--rows');
const tuningOnly = args.includes('--tuning-only');
await ruleReport({ tune: args.includes('--tune'), verbose: args.includes('--verbose'), tuningOnly });
// --tuning-only is for tuning the rule: neither the held-back fifth nor Tidy up's timing.
if (!tuningOnly) await tidyTiming(rowsAt >= 0 ? Number(args[rowsAt + 1]) : 10_000);
