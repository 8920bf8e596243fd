// The atomic part of a restore, and finishing one cut short by a kill.
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir, writeFileAtomic } from './files';

/** The restored files, written out beside the live ones before the swap. */
export const INCOMING = 'pgdata.restoring';
/** The files the restore replaced (already in a 'before-restore' backup), removed once it is done. */
export const REPLACED = 'pgdata.replaced';
/** Present from "the incoming files are complete" until the swap is done. */
export const RESTORE_MARKER = 'restore-pending.json';

/**
 * Two renames in one folder while the database is closed. The marker is
 * written only once the incoming files are complete (they were opened and
 * closed cleanly), so a kill at any point leaves either the old database in
 * place (no marker) or a restore that `finishInterruptedRestore` completes.
 */
export async function swapInRestoredFiles(dataDir: string): Promise<void> {
  await writeFileAtomic(dataDir, RESTORE_MARKER, JSON.stringify({ incoming: INCOMING, replaced: REPLACED }));
  await finishSwap(dataDir);
}

async function finishSwap(dataDir: string): Promise<void> {
  const live = join(dataDir, 'pgdata');
  const incoming = join(dataDir, INCOMING);
  const replaced = join(dataDir, REPLACED);
  if (existsSync(incoming)) {
    if (existsSync(live)) {
      await rm(replaced, { recursive: true, force: true });
      await rename(live, replaced);
    }
    await rename(incoming, live);
    syncDir(dataDir);
  }
  await rm(join(dataDir, RESTORE_MARKER), { force: true });
  syncDir(dataDir);
}

/**
 * At start-up, before the database opens: a restore whose incoming files were
 * complete is finished; an extraction cut short (no marker) is discarded —
 * the live database was never touched. The replaced files are removed only
 * once the live folder is in place (they are in a 'before-restore' backup).
 */
export async function finishInterruptedRestore(dataDir: string): Promise<'finished' | 'discarded' | 'none'> {
  const marker = existsSync(join(dataDir, RESTORE_MARKER));
  const incoming = existsSync(join(dataDir, INCOMING));
  let outcome: 'finished' | 'discarded' | 'none' = 'none';
  if (marker) {
    await finishSwap(dataDir);
    outcome = 'finished';
  } else if (incoming) {
    await rm(join(dataDir, INCOMING), { recursive: true, force: true });
    outcome = 'discarded';
  }
  if (existsSync(join(dataDir, 'pgdata')) && existsSync(join(dataDir, REPLACED))) {
    await rm(join(dataDir, REPLACED), { recursive: true, force: true });
  }
  return outcome;
}
