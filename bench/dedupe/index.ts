// npm run bench:dedupe [-- --tune] [-- --verbose] [-- --rows 10000]
// The near-duplicate rule's precision and recall (bench/dedupe/rule.ts), then
// Tidy up's time at scale (bench/dedupe/tidy.ts).
import { ruleReport } from './rule';
import { tidyTiming } from './tidy';

const args = process.argv.slice(2);
const rowsAt = args.indexOf('--rows');
await ruleReport({ tune: args.includes('--tune'), verbose: args.includes('--verbose') });
await tidyTiming(rowsAt >= 0 ? Number(args[rowsAt + 1]) : 10_000);
