import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { raceLock } from '../testing/lock-race';
import { acquireDirLock } from './lock';
import { startTicks } from './process-identity';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'hearth-lock-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// 50 rounds of each race here (each kind of stale lock ten times); `npm run bench:faults -- --only
// 'lock race'` runs 200 of each, `--rounds N` more.
describe('the data folder lock', () => {
  it('two processes racing for a free lock: exactly one owner, 50 rounds out of 50', async () => {
    const r = await raceLock(50, 'free');
    expect(r).toMatchObject({ rounds: 50, doubleOwners: 0, noOwner: 0 });
    expect(r.refusals[0]).toMatch(/already in use by another Hearth \(process \d+\)/);
  }, 240_000);

  it('two processes racing for a stale lock (dead, reused pid, before a reboot, old format, damaged): exactly one owner, 50 rounds', async () => {
    const r = await raceLock(50, 'stale');
    expect(r).toMatchObject({ rounds: 50, doubleOwners: 0, noOwner: 0 });
  }, 240_000);

  it('a lock naming a live but unrelated process (pid reused) is taken over; a live owner is refused with its pid', () => {
    const dir = tempDir();
    // pid 1 runs, but it is not the process that wrote this lock: its start time differs.
    writeFileSync(join(dir, 'hearth.lock'), JSON.stringify({ pid: 1, startTicks: (startTicks(1) ?? 0) + 1, nonce: 'x', since: '' }));
    const lock = acquireDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, 'hearth.lock'), 'utf8')).pid).toBe(process.pid);
    expect(() => acquireDirLock(dir)).toThrow(/already open in this process/);
    lock.release();
    expect(() => readFileSync(join(dir, 'hearth.lock'))).toThrow();
    const again = acquireDirLock(dir);
    again.release();
  });
});
