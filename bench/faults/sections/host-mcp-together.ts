// The browser host and an MCP stdio server started on one data folder within
// a few hundred ms of each other, either first (docs/mcp.md, "One database
// owner"): per round, who owns the folder, whether the stdio server's call was
// answered, and whether the host refused to start. Seeded: --start-seed N;
// rounds: --start-rounds N (default 100, --quick 10).
import { seeded, startTogether } from '../../../src/core/testing/start-together';
import type { FaultSection } from '../index';

export default {
  name: 'host and MCP together',
  async run(opts) {
    const rounds = Number(opts.flags['start-rounds'] ?? (opts.quick ? 10 : 100));
    const seed = Number(opts.flags['start-seed'] ?? 37);
    const random = seeded(seed);
    const tally = { hostOwns: 0, stdioOwns: 0, noOwner: 0, split: 0, forwarded: 0, refused: 0 };
    const faults: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await startTogether(random() < 0.5, Math.floor(random() * 300));
      if (r.owner === 'host') tally.hostOwns++;
      else if (r.owner === 'stdio') tally.stdioOwns++;
      else if (r.owner === 'split') tally.split++;
      else tally.noOwner++;
      if (r.forwarded) tally.forwarded++;
      if (r.refused) tally.refused++;
      if (r.refused || r.owner !== 'host' || !r.forwarded) faults.push(`round ${i + 1} (${r.order}): ${r.owner}, ${r.detail}`);
      // A long run under load: what it has so far, in case it is stopped.
      if ((i + 1) % 10 === 0) console.log(`  after ${i + 1} rounds: host owns ${tally.hostOwns}, forwarded ${tally.forwarded}, refused ${tally.refused}`);
    }
    for (const f of faults.slice(0, 10)) console.log(`  fault: ${f}`);
    return {
      rounds,
      seed,
      'owners: host': tally.hostOwns,
      'owners: stdio server': tally.stdioOwns,
      'no owner or two': tally.noOwner + tally.split,
      'stdio calls answered (forwarded)': tally.forwarded,
      'host refused to start': tally.refused,
    };
  },
} satisfies FaultSection;
