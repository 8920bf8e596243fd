// Two processes racing for one data folder's lock (free and stale), and two real hosts started together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { raceLock } from '../../../src/core/testing/lock-race';
import { type HostChild, spawnHostFromSource } from '../../../src/core/testing/mcp-processes';
import type { FaultSection } from '../index';

async function hostsTogether(rounds: number): Promise<{ bothServed: number; oneServed: number }> {
  let bothServed = 0;
  let oneServed = 0;
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-twohosts-'));
    const started = await Promise.allSettled([spawnHostFromSource(dir, `t${r}a`), spawnHostFromSource(dir, `t${r}b`)]);
    const up = started.filter((s): s is PromiseFulfilledResult<HostChild> => s.status === 'fulfilled').map((s) => s.value);
    if (up.length > 1) bothServed++;
    if (up.length === 1) oneServed++;
    await Promise.all(up.map((h) => h.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
  return { bothServed, oneServed };
}

export default {
  name: 'lock race',
  async run({ quick, flags }) {
    const rounds = Number(flags.rounds ?? (quick ? 50 : 200));
    const hostRounds = Number(flags['host-rounds'] ?? (quick ? 2 : 5));
    const free = await raceLock(rounds, 'free');
    const stale = await raceLock(rounds, 'stale');
    const hosts = await hostsTogether(hostRounds);
    return {
      'free lock rounds': free.rounds,
      'free lock double owners': free.doubleOwners,
      'free lock no owner': free.noOwner,
      'stale lock rounds': stale.rounds,
      'stale lock double owners': stale.doubleOwners,
      'stale lock no owner': stale.noOwner,
      'two hosts started together, rounds': hostRounds,
      'rounds where both served': hosts.bothServed,
      'rounds where exactly one served': hosts.oneServed,
    };
  },
} satisfies FaultSection;
