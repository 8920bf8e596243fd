// A core in a child process for the trash crash test (src/core/testing/trash-crash.ts):
// over the items the parent seeded, it deletes what is live and restores what is in
// the trash, one at a time, in an order drawn from the seed. Before each it prints
// "S <kind> <key>", after each "A <kind> <key> <live|trash>", until it is killed.
// Usage: node <its bundle> <dataDir> <seed>
import type { Core } from '../index';
import { createCore } from '../index';
import { prng } from './synthetic-corpus';
import { TRASH_CRASH_PERSONA, type CrashItem, readCrashItems } from './trash-crash-items';

const [dataDir, seedArg] = process.argv.slice(2);
if (!dataDir || !seedArg) throw new Error('usage: trash-crash-child.ts <dataDir> <seed>');
// No queue is served: only the deletes and restores write.
const core = await createCore({ dataDir, queues: {}, dailyBackups: false, startupCheckDelayMs: null });
const items = await readCrashItems(core);
const random = prng(Number(seedArg));
process.stdout.write('READY\n');

async function step(c: Core, item: CrashItem): Promise<'live' | 'trash'> {
  const persona = TRASH_CRASH_PERSONA;
  const trash = await c.call('trash.list', { persona });
  const trashed = trash.find((t) => t.kind === item.kind && t.key === item.key);
  if (trashed) {
    await c.call('trash.restore', { id: trashed.id });
    return 'live';
  }
  if (item.kind === 'memory') await c.call('memories.delete', { id: item.key });
  else if (item.kind === 'user_model') await c.call('userModel.delete', { persona, dimension: item.key });
  else await c.call('knowledge.deleteSource', { persona, source: item.key });
  return 'trash';
}

for (;;) {
  const item = items[Math.floor(random() * items.length)]!;
  process.stdout.write(`S ${item.kind} ${item.key}\n`);
  const state = await step(core, item);
  process.stdout.write(`A ${item.kind} ${item.key} ${state}\n`);
}
