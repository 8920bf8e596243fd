// Recall through dispatch with thousands of seeded random and hostile query strings (the unit
// test, src/core/recall/robustness.test.ts, runs a few hundred): every one must answer ok.
import { makeEmbedFixture } from '../../../src/core/testing/embed-fixture';
import { hostileQuery } from '../../../src/core/testing/hostile-queries';
import { prng, sentence } from '../../../src/core/testing/synthetic-corpus';
import { waitForJobs } from '../../../src/core/testing/wait-jobs';
import type { FaultSection } from '../index';

export default {
  name: 'hostile recall',
  async run(opts) {
    const queries = opts.trials ?? (opts.quick ? 1_000 : 5_000);
    const fx = await makeEmbedFixture();
    try {
      const rnd = prng(7);
      for (let i = 0; i < 100; i++) await fx.core.call('memories.write', { persona: 'main', content: sentence(rnd) });
      await waitForJobs(fx.core);
      const q = prng(4242);
      const failures: string[] = [];
      const t0 = performance.now();
      for (let i = 0; i < queries; i++) {
        const query = hostileQuery(q);
        const res = await fx.core.dispatch('recall', { persona: 'main', query, limit: 10 });
        if (!res.ok) failures.push(`${JSON.stringify(query.slice(0, 60))}: ${res.error.message}`);
      }
      const ms = (performance.now() - t0) / queries;
      return {
        queries,
        'queries answered with an error': failures.length,
        'mean ms per query': Number(ms.toFixed(1)),
        ...(failures[0] ? { first: failures[0] } : {}),
      };
    } finally {
      await fx.dispose();
    }
  },
} satisfies FaultSection;
