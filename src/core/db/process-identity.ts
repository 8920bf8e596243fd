import { readFileSync } from 'node:fs';

/**
 * Who a process is, beyond its pid: pids are reused, after a reboot at once
 * (Hearth's lock would otherwise name "process 1" forever). On Linux the start
 * time (in clock ticks since boot, /proc/<pid>/stat field 22) plus the boot id
 * name one process for good; elsewhere only the pid is known.
 */
export interface ProcessIdentity {
  pid: number;
  /** /proc/<pid>/stat starttime, or null where /proc is not there. */
  startTicks?: number | null;
  /** /proc/sys/kernel/random/boot_id, or null where /proc is not there. */
  bootId?: string | null;
}

export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The start time of a live process, or null (no /proc, or no such process). */
export function startTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ')': split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[19]); // field 22 counted from field 3
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

export function describeProcess(pid: number): ProcessIdentity {
  return { pid, startTicks: startTicks(pid), bootId: bootId() };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Is the process a record names still running (the same process, not a reused pid)? */
export function isSameProcess(who: ProcessIdentity): boolean {
  if (!Number.isInteger(who.pid) || who.pid <= 0) return false;
  const here = bootId();
  if (who.bootId && here && who.bootId !== here) return false; // recorded before a reboot
  if (typeof who.startTicks === 'number') {
    const now = startTicks(who.pid);
    if (now !== null) return now === who.startTicks;
    if (here) return false; // /proc is there and the pid is not: gone
  }
  return pidAlive(who.pid);
}
