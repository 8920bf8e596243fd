// A power cut, simulated the way SQLite's crash VFS does it: every write
// PGlite makes is recorded with the bytes it replaced; a sync makes a file's
// recorded writes permanent. At the chosen write the machine stops: that write
// never happens, onPowerCut runs at once (the trial process rewinds and exits
// from inside the write call, so Postgres never runs another instruction), and
// crash() rewinds what was never synced — each such write is lost, kept, or
// torn (only its first sectors made it), chosen by a seeded generator. Renames,
// unlinks and truncations are taken as permanent at once (see
// docs/durability.md for the limits).
//
// Why stop inside the write rather than drop it and let the workload run on:
// Postgres then read back pages it believed written and, in a migration's
// index build, spun forever on them — a state no real machine reaches.
import * as fs from 'node:fs';
import type { FileIo } from '../db/durable-fs';
import { prng } from './synthetic-corpus';

const SECTOR = 512;

interface Undo {
  path: string;
  position: number;
  old: Buffer;
  sizeBefore: number;
}

export class CrashIo implements FileIo {
  private pending: Undo[] = [];
  private writes = 0;
  private crashedAt: number | null = null;
  /** Completed WAL syncs, counted: the workload notes it after each acknowledged commit. */
  walSyncs = 0;
  syncs = 0;
  private readonly random: () => number;
  /** Background syncs not yet done, each finishing after a few more writes. */
  private soon: { path: string; fd: number; due: number }[] = [];

  constructor(
    seed: number,
    /** The write (1-based) at which the power goes; Infinity: only when crash() is called. */
    private readonly crashAtWrite: number,
    /** Called at the cut, from inside the write; it must not return to Postgres (it ends the process). */
    private readonly onPowerCut: () => never,
  ) {
    this.random = prng(seed);
  }

  get crashed(): boolean {
    return this.crashedAt !== null;
  }

  get writeCount(): number {
    return this.writes;
  }

  beforeWrite(path: string, fd: number, position: number, length: number): boolean {
    if (this.crashed) return false;
    this.writes++;
    this.finishSoon();
    if (this.writes >= this.crashAtWrite) {
      this.crashedAt = this.writes;
      this.onPowerCut();
    }
    const sizeBefore = fs.fstatSync(fd).size;
    const old = Buffer.alloc(Math.max(0, Math.min(length, sizeBefore - position)));
    if (old.length > 0) {
      const rfd = fs.openSync(path, 'r');
      try {
        fs.readSync(rfd, old, 0, old.length, position);
      } finally {
        fs.closeSync(rfd);
      }
    }
    this.pending.push({ path, position, old, sizeBefore });
    return true;
  }

  sync(path: string, fd: number): void {
    if (this.crashed) return;
    fs.fsyncSync(fd);
    this.pending = this.pending.filter((u) => u.path !== path);
    this.syncs++;
    if (path.includes('pg_wal')) this.walSyncs++;
  }

  syncSoon(path: string, fd: number): void {
    if (this.crashed) return;
    // A background sync finishes a little later: after 0 to 3 more writes.
    this.soon.push({ path, fd, due: this.writes + Math.floor(this.random() * 4) });
    this.finishSoon();
  }

  private finishSoon(): void {
    const done = this.soon.filter((s) => s.due <= this.writes);
    this.soon = this.soon.filter((s) => s.due > this.writes);
    for (const s of done) {
      this.pending = this.pending.filter((u) => u.path !== s.path);
      this.syncs++;
      this.walSyncs++;
    }
  }

  /**
   * The power cut: rewinds every unsynced write (newest first), each lost,
   * kept or torn. Call after the PGlite instance has stopped using the files.
   * Returns how many writes were rewound.
   */
  crash(): { rewound: number; torn: number; kept: number } {
    if (!this.crashed) this.crashedAt = this.writes;
    let rewound = 0;
    let torn = 0;
    let kept = 0;
    for (const u of this.pending.reverse()) {
      if (!fs.existsSync(u.path)) continue;
      const roll = this.random();
      if (roll < 0.2) {
        kept++;
        continue;
      }
      let from = 0;
      if (roll < 0.4 && u.old.length > SECTOR) {
        // Torn: the first whole sectors of this write reached the disk, the rest did not.
        from = SECTOR * (1 + Math.floor(this.random() * Math.floor((u.old.length - 1) / SECTOR)));
        torn++;
      } else {
        rewound++;
      }
      const fd = fs.openSync(u.path, 'r+');
      try {
        if (u.old.length > from) fs.writeSync(fd, u.old, from, u.old.length - from, u.position + from);
        if (from === 0 && fs.fstatSync(fd).size > u.sizeBefore) fs.ftruncateSync(fd, u.sizeBefore);
      } finally {
        fs.closeSync(fd);
      }
    }
    this.pending = [];
    return { rewound, torn, kept };
  }
}
