import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finishInterruptedRestore, INCOMING, REPLACED, RESTORE_MARKER } from './swap';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data folder as a kill left it: which of live / incoming / replaced / marker exist. */
function folder(state: { live?: string; incoming?: string; replaced?: string; marker?: boolean }): string {
  const d = mkdtempSync(join(tmpdir(), 'hearth-swap-'));
  dirs.push(d);
  const put = (name: string, tag?: string) => {
    if (!tag) return;
    mkdirSync(join(d, name));
    writeFileSync(join(d, name, 'PG_VERSION'), tag);
  };
  put('pgdata', state.live);
  put(INCOMING, state.incoming);
  put(REPLACED, state.replaced);
  if (state.marker) writeFileSync(join(d, RESTORE_MARKER), '{}');
  return d;
}
const live = (d: string) => readFileSync(join(d, 'pgdata', 'PG_VERSION'), 'utf8');

describe('a restore cut short by a kill, finished at the next start', () => {
  it('killed while the backup was written out (no marker): the old database stays, the partial copy goes', async () => {
    const d = folder({ live: 'old', incoming: 'half' });
    expect(await finishInterruptedRestore(d)).toBe('discarded');
    expect(live(d)).toBe('old');
    expect(existsSync(join(d, INCOMING))).toBe(false);
  });

  it('killed after the marker, before the first rename: the restore is completed', async () => {
    const d = folder({ live: 'old', incoming: 'restored', marker: true });
    expect(await finishInterruptedRestore(d)).toBe('finished');
    expect(live(d)).toBe('restored');
  });

  it('killed between the two renames (no live folder at all): the restore is completed, never an empty start', async () => {
    const d = folder({ incoming: 'restored', replaced: 'old', marker: true });
    expect(await finishInterruptedRestore(d)).toBe('finished');
    expect(live(d)).toBe('restored');
    expect(existsSync(join(d, REPLACED))).toBe(false);
  });

  it('killed after both renames: only the marker and the replaced copy are cleared', async () => {
    const d = folder({ live: 'restored', replaced: 'old', marker: true });
    expect(await finishInterruptedRestore(d)).toBe('finished');
    expect(live(d)).toBe('restored');
    expect(existsSync(join(d, RESTORE_MARKER))).toBe(false);
  });

  it('nothing was under way: nothing changes', async () => {
    const d = folder({ live: 'current' });
    expect(await finishInterruptedRestore(d)).toBe('none');
    expect(live(d)).toBe('current');
  });
});
