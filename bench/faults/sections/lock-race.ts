// Two processes racing for one data folder's lock (free and stale), and two real hosts started
// together on a stale lock (`--host-rounds N`, default 5).
import { hostsTogether, raceLock } from '../../../src/core/testing/lock-race';
import type { FaultSection } from '../index';

export default {
  name: 'lock race',
  async run({ quick, flags }) {
    const rounds = Number(flags.rounds ?? (quick ? 50 : 200));
    const hostRounds = Number(flags['host-rounds'] ?? (quick ? 2 : 5));
    const free = await raceLock(rounds, 'free');
    const stale = await raceLock(rounds, 'stale');
    const hosts = await hostsTogether(hostRounds, 'stale');
    return {
      'free lock rounds': free.rounds,
      'free lock double owners': free.doubleOwners,
      'free lock no owner': free.noOwner,
      'stale lock rounds': stale.rounds,
      'stale lock double owners': stale.doubleOwners,
      'stale lock no owner': stale.noOwner,
      'two hosts started together on a stale lock, rounds': hostRounds,
      'rounds where both served': hosts.bothServed,
      'rounds where exactly one served': hosts.oneServed,
      'refusal the other got': hosts.refusal.slice(0, 160) || 'none',
    };
  },
} satisfies FaultSection;
