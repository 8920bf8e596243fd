// A child process that races for a data folder's lock on command (src/core/testing/lock-race.ts).
import { acquireDirLock, type DirLock } from '../db/lock';

let held: DirLock | null = null;
process.on('message', (m: { op: 'acquire'; dir: string; at: number } | { op: 'release' } | { op: 'exit' }) => {
  if (m.op === 'acquire') {
    // Spin to the agreed instant so both racers call acquire as close together as the OS allows.
    while (Date.now() < m.at) {
      /* spin */
    }
    try {
      held = acquireDirLock(m.dir);
      process.send!({ ok: true });
    } catch (e) {
      process.send!({ ok: false, message: (e as Error).message });
    }
  } else if (m.op === 'release') {
    held?.release();
    held = null;
    process.send!({ released: true });
  } else {
    process.exit(0);
  }
});
process.send!({ ready: true });
