// The backups folder: archives, their manifests, and how they are written.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { backupId } from '../../shared/contract/app';
import type { BackupInfo } from '../../shared/types';

export const BACKUP_REASONS = ['manual', 'daily', 'before-migration', 'before-persona-delete', 'before-restore'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];

/** Ids are made here (time + reason + random); anything else is refused before it reaches a path. */
export { backupId };

export const counts = z.object({
  personas: z.number().int(),
  memories: z.number().int(),
  knowledgeSources: z.number().int(),
  knowledgeChunks: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
});
export type BackupCounts = z.infer<typeof counts>;

export const manifest = z.object({
  format: z.literal('hearth-backup'),
  version: z.literal(1),
  id: backupId,
  createdAt: z.string(),
  reason: z.enum(BACKUP_REASONS),
  appVersion: z.string(),
  /** Size of the archive in bytes, and its sha256: a truncated or altered archive is told apart. */
  bytes: z.number().int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  counts,
  verified: z.boolean(),
  integrity: z.object({ ok: z.boolean(), checked: z.number().int(), problems: z.array(z.string()) }),
  /** The newest migration in the snapshot: a restore onto an older Hearth is refused by migrate(). */
  schema: z.string().nullable(),
});
export type Manifest = z.infer<typeof manifest>;

export function backupsDir(dataDir: string): string {
  return join(dataDir, 'backups');
}
export const archiveName = (id: string) => `${id}.tar.gz`;
export const manifestName = (id: string) => `${id}.json`;
const PARTIAL = '.partial';

export function newBackupId(now: Date, reason: BackupReason): string {
  const stamp = now.toISOString().replace(/[-:.]/g, ''); // 20261201T102000123Z
  return `${stamp}-${reason}-${randomBytes(3).toString('hex')}`;
}

/**
 * Writes a file so that it is either absent or complete under its name:
 * a private temporary (0600), fsync'd, renamed, then the folder fsync'd so the
 * rename itself survives a power cut. On failure (a full disk) the temporary
 * is removed and the error thrown.
 */
export async function writeFileAtomic(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  const tmp = join(dir, `${name}${PARTIAL}`);
  try {
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(dir, name));
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  syncDir(dir);
}

export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename is still atomic.
  }
}

export async function ensureBackupsDir(dataDir: string): Promise<string> {
  const dir = backupsDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Every backup with a readable manifest, newest first. An archive whose manifest is unreadable is not listed. */
export async function listManifests(dataDir: string): Promise<Manifest[]> {
  const dir = backupsDir(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: Manifest[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const m = manifest.parse(JSON.parse(await readFile(join(dir, name), 'utf8')));
      if (name === manifestName(m.id)) out.push(m);
    } catch {
      // a damaged manifest: leave the files alone, just do not offer them
    }
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id)));
}

export async function readManifest(dataDir: string, id: string): Promise<Manifest | null> {
  try {
    return manifest.parse(JSON.parse(await readFile(join(backupsDir(dataDir), manifestName(id)), 'utf8')));
  } catch {
    return null;
  }
}

export async function archiveSize(dataDir: string, id: string): Promise<number | null> {
  try {
    return (await stat(join(backupsDir(dataDir), archiveName(id)))).size;
  } catch {
    return null;
  }
}

/** Removes one backup: manifest first, so a half-removed backup is never listed. */
export async function removeBackup(dataDir: string, id: string): Promise<void> {
  const dir = backupsDir(dataDir);
  await rm(join(dir, manifestName(id)), { force: true });
  await rm(join(dir, archiveName(id)), { force: true });
}

/**
 * Leftovers of a backup cut short (a kill, a full disk): temporaries, and
 * archives Hearth named itself that never got their manifest (never
 * verified). Any other file someone put in the folder is left alone.
 */
export async function sweepPartials(dataDir: string): Promise<void> {
  const dir = backupsDir(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const manifests = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)));
  for (const name of names) {
    const stem = name.slice(0, -'.tar.gz'.length);
    const orphan = name.endsWith('.tar.gz') && backupId.safeParse(stem).success && !manifests.has(stem);
    if (name.endsWith(PARTIAL) || orphan) await rm(join(dir, name), { force: true, recursive: true });
  }
}

export function toInfo(m: Manifest): BackupInfo {
  return {
    id: m.id,
    createdAt: m.createdAt,
    reason: m.reason,
    bytes: m.bytes,
    counts: m.counts,
    verified: m.verified,
    problems: m.integrity.problems.slice(0, 5),
  };
}
