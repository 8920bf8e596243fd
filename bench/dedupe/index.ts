// npm run bench:dedupe [-- --tune] [-- --verbose] [-- --rows 10000]
// The near-duplicate rule's precision and recall (bench/dedupe/rule.ts).
import { ruleReport } from './rule';

const args = process.argv.slice(2);
await ruleReport({ tune: args.includes('--tune'), verbose: args.includes('--verbose') });
