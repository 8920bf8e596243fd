// Races two real processes for one data folder's lock, round after round (tests and bench:faults).
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootId, startTicks } from '../db/process-identity';
import { templateCopy } from './core';
import { type HostChild, spawnHostFromSource } from './mcp-processes';
import { childScript } from './source-build';

export type LockRaceMode = 'free' | 'stale';

export interface LockRaceResult {
  rounds: number;
  /** Rounds in which both processes got the lock: must be 0. */
  doubleOwners: number;
  /** Rounds in which neither did: must be 0 too (a stale lock must be taken over). */
  noOwner: number;
  refusals: string[];
}

function next(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error('lock racer exited'));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as Record<string, unknown>);
    });
  });
}

/** A pid that surely ran and is gone: a child that has exited (one per run; spawning costs ~0.2 s). */
let gone: number | null = null;
function deadPid(): number {
  gone ??= spawnSync(process.execPath, ['-e', '0']).pid!;
  return gone;
}

/**
 * Stale locks of every kind the takeover must handle: a dead process, a live
 * but unrelated process (the pid was reused: our own pid with another start
 * time), a lock from before a reboot, an older Hearth's lock without identity,
 * and a damaged file.
 */
function staleLock(round: number): string {
  switch (round % 5) {
    case 0:
      return JSON.stringify({ pid: deadPid(), startTicks: 1, bootId: bootId(), nonce: `dead-${round}`, since: '' });
    case 1:
      return JSON.stringify({ pid: process.pid, startTicks: (startTicks(process.pid) ?? 0) + 7, bootId: bootId(), nonce: `reused-${round}`, since: '' });
    case 2:
      return JSON.stringify({ pid: 1, startTicks: 0, bootId: 'another-boot', nonce: `reboot-${round}`, since: '' });
    case 3:
      return JSON.stringify({ pid: deadPid(), since: '2024-01-01T00:00:00.000Z' });
    default:
      return '{"pid": 12';
  }
}

export async function raceLock(rounds: number, mode: LockRaceMode): Promise<LockRaceResult> {
  const script = childScript('lock-racer');
  const racers = [0, 1].map(() => fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const root = mkdtempSync(join(tmpdir(), 'hearth-lockrace-'));
  const result: LockRaceResult = { rounds, doubleOwners: 0, noOwner: 0, refusals: [] };
  try {
    await Promise.all(racers.map(next));
    for (let r = 0; r < rounds; r++) {
      const dir = join(root, `r${r}`);
      mkdirSync(dir);
      if (mode === 'stale') writeFileSync(join(dir, 'hearth.lock'), staleLock(r));
      const at = Date.now() + 40;
      const answers = await Promise.all(racers.map((c) => (c.send({ op: 'acquire', dir, at }), next(c))));
      const owners = answers.filter((a) => a.ok === true).length;
      if (owners > 1) result.doubleOwners++;
      if (owners === 0) result.noOwner++;
      for (const a of answers) if (a.ok === false && result.refusals.length < 3) result.refusals.push(String(a.message));
      await Promise.all(racers.map((c) => (c.send({ op: 'release' }), next(c))));
    }
  } finally {
    for (const c of racers) c.send({ op: 'exit' });
    rmSync(root, { recursive: true, force: true });
  }
  return result;
}

export interface HostsTogetherOptions {
  /**
   * Every other round races on a copy of a migrated folder (a later launch) instead of an
   * empty one (the first launch, initdb included): both cases in fewer, cheaper rounds.
   */
  migratedEveryOther?: boolean;
}

/**
 * Two real browser hosts started at the same instant on one fresh data folder
 * ('stale': holding a stale lock of each kind in turn, as after a crash or a
 * reboot), `rounds` times: how often both came up (must be 0) and how often
 * exactly one did.
 */
export async function hostsTogether(
  rounds: number,
  mode: LockRaceMode = 'free',
  options: HostsTogetherOptions = {},
): Promise<{ bothServed: number; oneServed: number; refusal: string }> {
  let bothServed = 0;
  let oneServed = 0;
  let refusal = '';
  for (let r = 0; r < rounds; r++) {
    const dir = options.migratedEveryOther && r % 2 === 1 ? await templateCopy() : mkdtempSync(join(tmpdir(), 'hearth-twohosts-'));
    if (mode === 'stale') writeFileSync(join(dir, 'hearth.lock'), staleLock(r));
    const started = await Promise.allSettled([
      spawnHostFromSource(dir, `two-hosts-token-${r}-a`),
      spawnHostFromSource(dir, `two-hosts-token-${r}-b`),
    ]);
    const up = started.filter((s): s is PromiseFulfilledResult<HostChild> => s.status === 'fulfilled').map((s) => s.value);
    for (const s of started) if (s.status === 'rejected') refusal ||= String(s.reason);
    if (up.length > 1) bothServed++;
    if (up.length === 1) oneServed++;
    await Promise.all(up.map((h) => h.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
  return { bothServed, oneServed, refusal };
}
