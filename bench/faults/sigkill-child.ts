// A Hearth core with 4 concurrent writers, for the SIGKILL section: prints "A <content>" for each
// acknowledged memories.write, until it is killed. Usage: node --import tsx sigkill-child.ts <dataDir> <durable>
import { createCore } from '../../src/core/index';

const [dataDir, durable] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: sigkill-child.ts <dataDir> <durable 0|1>');
const core = await createCore({ dataDir });
if (durable === '1') await core.call('settings.set', { durableCommits: true });
process.stdout.write('READY\n');
await Promise.all(
  [0, 1, 2, 3].map(async (w) => {
    for (let i = 0; ; i++) {
      const content = `k-${w}-${i}`;
      await core.call('memories.write', { persona: 'main', content });
      process.stdout.write(`A ${content}\n`);
    }
  }),
);
