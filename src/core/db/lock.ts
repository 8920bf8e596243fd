import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { describeProcess, isSameProcess, type ProcessIdentity } from './process-identity';

export interface DirLock {
  path: string;
  release(): void;
}

/** What the lock file holds. `pid` stays a top-level number: the MCP door and its tests read it. */
interface LockRecord extends ProcessIdentity {
  /** Unique per lock file: names the takeover guard of exactly this lock (docs/data-safety.md). */
  nonce: string;
  since: string;
  /**
   * Which door holds the folder: `host` and `mcp-stdio` always write an MCP endpoint once open,
   * `desktop` only with its listener on. Read by a door that finds the folder locked (docs/mcp.md).
   */
  role?: LockRole;
}

export type LockRole = 'host' | 'desktop' | 'mcp-stdio';

const LOCK_NAME = 'hearth.lock';
const GUARD_PREFIX = 'hearth.lock.takeover-';
const TEMP_PREFIX = 'hearth.lock.new-';
/** A takeover guard can itself be left by a crash; each level is a guard of the one below. */
const MAX_DEPTH = 4;

/**
 * The record in a lock file, or 'missing'. A file without a nonce (an older
 * Hearth's lock, a damaged or hand-written file) gets one derived from its
 * bytes, so its takeover guard is still named for exactly that file.
 */
function readRecord(path: string): LockRecord | 'missing' {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  const derived = `raw-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
  try {
    const r = JSON.parse(bytes.toString('utf8')) as Partial<LockRecord>;
    if (typeof r.pid !== 'number') return { pid: -1, nonce: derived, since: '' };
    return { ...(r as LockRecord), nonce: typeof r.nonce === 'string' ? r.nonce : derived };
  } catch {
    return { pid: -1, nonce: derived, since: '' };
  }
}

/**
 * Writes a complete record to a private temporary file first: a lock file is
 * therefore never seen half-written, and it can be put in place atomically
 * with link() (fails if the name exists) or rename() (replaces a stale one).
 */
function writeTemp(dir: string, record: LockRecord): string {
  const tmp = join(dir, `${TEMP_PREFIX}${record.nonce}`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(record));
    fsyncSync(fd);
  } catch (e) {
    // A full disk: no empty temporary left behind in the person's folder.
    closeSync(fd);
    tryUnlink(tmp);
    throw e;
  }
  closeSync(fd);
  return tmp;
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

type Attempt = { ok: true } | { ok: false; owner: LockRecord };

/**
 * Takes `path` for `record`, atomically. Free name: link() the prepared file
 * (only one of any number of racers can create the name). Stale name (its
 * owner is dead, or the pid now belongs to another process): first win the
 * takeover guard named after that lock's nonce — itself taken by this very
 * function — then rename() the new record over the stale one. Only the guard's
 * holder may replace that lock, so no racer can replace a lock another racer
 * has just put in place. See docs/data-safety.md.
 */
function take(dir: string, path: string, record: LockRecord, depth: number): Attempt {
  for (let tries = 0; tries < 50; tries++) {
    const tmp = writeTemp(dir, { ...record, nonce: `${record.nonce}-${tries}-${depth}` });
    try {
      try {
        linkSync(tmp, path);
        return { ok: true };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const current = readRecord(path);
      if (current === 'missing') continue; // released in between: try again
      if (isSameProcess(current)) return { ok: false, owner: current };
      if (depth >= MAX_DEPTH) return { ok: false, owner: current };
      const guardNonce = current.nonce;
      const guard = join(dir, `${GUARD_PREFIX}${guardNonce}`);
      const won = take(dir, guard, { ...record, nonce: randomBytes(8).toString('hex') }, depth + 1);
      if (!won.ok) {
        // Another process is taking this stale lock over right now: look again shortly.
        sleepMs(5 + Math.random() * 20);
        continue;
      }
      try {
        const again = readRecord(path);
        if (again === 'missing' || again.nonce !== guardNonce) continue; // the stale lock was already replaced: look at the new one
        renameSync(tmp, path);
        return { ok: true };
      } finally {
        tryUnlink(guard);
      }
    } finally {
      tryUnlink(tmp);
    }
  }
  const current = readRecord(path);
  return { ok: false, owner: current !== 'missing' ? current : { ...record, pid: -1 } };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Leftovers of crashed takeovers (guards, temporaries) are harmless; the owner clears them. */
function sweepLeftovers(dir: string, keep: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if ((name.startsWith(GUARD_PREFIX) || name.startsWith(TEMP_PREFIX)) && name !== keep) {
      const r = readRecord(join(dir, name));
      if (r === 'missing' || !isSameProcess(r)) tryUnlink(join(dir, name));
    }
  }
}

/**
 * PGlite takes no lock on its directory, and two owners silently lose writes.
 * The lock file names the owning process (pid, start time, boot id); a lock
 * left by a process that no longer runs — or whose pid now belongs to another
 * process, after a reboot — is taken over, atomically (docs/data-safety.md).
 */
export function acquireDirLock(dataDir: string, role?: LockRole): DirLock {
  const path = join(dataDir, LOCK_NAME);
  const record: LockRecord = {
    ...describeProcess(process.pid),
    nonce: randomBytes(12).toString('hex'),
    since: new Date().toISOString(),
    ...(role ? { role } : {}),
  };
  const got = take(dataDir, path, record, 0);
  if (!got.ok) {
    const owner = got.owner;
    if (owner.pid === process.pid) {
      throw new AppError('locked', `The data directory ${dataDir} is already open in this process.`);
    }
    if (owner.pid > 0) {
      throw new AppError(
        'locked',
        `The data directory ${dataDir} is already in use by another Hearth (process ${owner.pid}). Close it first, or choose another data directory.`,
      );
    }
    throw new AppError('locked', `Could not lock the data directory ${dataDir}: another Hearth is taking it over right now. Try again.`);
  }
  sweepLeftovers(dataDir, LOCK_NAME);
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Only our own lock is removed: a lock is never taken from a live owner, so this is ours.
      const current = readRecord(path);
      if (current !== 'missing' && current.nonce.startsWith(record.nonce)) tryUnlink(path);
    },
  };
}

/**
 * Who holds the folder's lock right now: 'none' (no lock file), 'dead' (its
 * process is gone: the next open takes it over), or 'alive' (another process
 * has the folder open). Read-only: for a waiting MCP server's decisions.
 */
export function lockHolder(dataDir: string): 'none' | 'dead' | 'alive' {
  const r = readRecord(join(dataDir, LOCK_NAME));
  if (r === 'missing') return 'none';
  return isSameProcess(r) ? 'alive' : 'dead';
}

/**
 * The lock's holder with its door and the lock's nonce (a new nonce is a new
 * holder): for a door that waits for a starting owner to serve MCP.
 */
export function lockHolderInfo(dataDir: string): { state: 'none' } | { state: 'dead' | 'alive'; pid: number; role: LockRole | null; nonce: string } {
  const r = readRecord(join(dataDir, LOCK_NAME));
  if (r === 'missing') return { state: 'none' };
  const role = r.role === 'host' || r.role === 'desktop' || r.role === 'mcp-stdio' ? r.role : null;
  return { state: isSameProcess(r) ? 'alive' : 'dead', pid: r.pid, role, nonce: r.nonce };
}
