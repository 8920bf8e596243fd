// The watch tables (migrations/0024_watched_folders.sql): which folders each
// persona watches, and for each document file the hash last ingested and how
// its latest change went.
import type { FolderWatch, WatchedFile, WatchFileState } from '../../../shared/api';
import type { Queryable } from '../../db/client';
import { toIso } from '../../time';

export interface WatchRow {
  persona: string;
  folder: string;
  label: string;
}

export interface FileRow {
  path: string;
  source: string;
  hash: string | null;
  state: WatchFileState;
}

/** At most this many files per watch in knowledge.watches (errors and work in progress first). */
const LISTED_FILES = 200;

export async function allWatches(db: Queryable): Promise<WatchRow[]> {
  const { rows } = await db.query<WatchRow>('SELECT persona, folder, label FROM knowledge_watches ORDER BY persona, created_at, folder');
  return rows;
}

export async function personaWatches(db: Queryable, persona: string): Promise<WatchRow[]> {
  const { rows } = await db.query<WatchRow>('SELECT persona, folder, label FROM knowledge_watches WHERE persona = $1 ORDER BY created_at, folder', [persona]);
  return rows;
}

export async function insertWatch(db: Queryable, w: WatchRow, at: Date): Promise<void> {
  await db.query('INSERT INTO knowledge_watches (persona, folder, label, created_at) VALUES ($1, $2, $3, $4)', [w.persona, w.folder, w.label, at]);
}

/** Forgets the watch and its files' states (their sources stay); false when there was none. */
export async function deleteWatch(db: Queryable, persona: string, folder: string): Promise<boolean> {
  const { affectedRows } = await db.query('DELETE FROM knowledge_watches WHERE persona = $1 AND folder = $2', [persona, folder]);
  return affectedRows > 0;
}

export async function watchFiles(db: Queryable, w: WatchRow): Promise<Map<string, FileRow>> {
  const { rows } = await db.query<FileRow>('SELECT path, source, hash, state FROM knowledge_watch_files WHERE persona = $1 AND folder = $2', [
    w.persona,
    w.folder,
  ]);
  return new Map(rows.map((r) => [r.path, r]));
}

export async function fileRow(db: Queryable, w: WatchRow, path: string): Promise<FileRow | null> {
  const { rows } = await db.query<FileRow>(
    'SELECT path, source, hash, state FROM knowledge_watch_files WHERE persona = $1 AND folder = $2 AND path = $3',
    [w.persona, w.folder, path],
  );
  return rows[0] ?? null;
}

/** Records a file's state; `hash` is kept as it was unless given (the content last ingested). */
export async function setFileState(
  db: Queryable,
  w: WatchRow,
  file: { path: string; source: string; state: WatchFileState; error?: string | null; hash?: string },
  at: Date,
): Promise<void> {
  // A watch removed meanwhile (unwatch, persona deleted) has no row to hang this on: nothing is written.
  await db.query(
    `INSERT INTO knowledge_watch_files (persona, folder, path, source, hash, state, error, updated_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM knowledge_watches WHERE persona = $1 AND folder = $2)
     ON CONFLICT (persona, folder, path) DO UPDATE
     SET source = EXCLUDED.source, state = EXCLUDED.state, error = EXCLUDED.error, updated_at = EXCLUDED.updated_at,
         hash = CASE WHEN $9 THEN EXCLUDED.hash ELSE knowledge_watch_files.hash END`,
    [w.persona, w.folder, file.path, file.source, file.hash ?? null, file.state, file.error ?? null, at, file.hash !== undefined],
  );
}

/** Many new files at once (a folder's first scan): each 'pending', one statement per few hundred. */
export async function addPending(db: Queryable, w: WatchRow, files: { path: string; source: string }[], at: Date): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    const part = files.slice(i, i + 500);
    const params: unknown[] = [w.persona, w.folder, at];
    const values = part.map((f) => {
      params.push(f.path, f.source);
      return `($${params.length - 1}::text, $${params.length}::text)`;
    });
    await db.query(
      `INSERT INTO knowledge_watch_files (persona, folder, path, source, state, updated_at)
       SELECT $1, $2, v.path, v.source, 'pending', $3 FROM (VALUES ${values.join(', ')}) AS v(path, source)
       WHERE EXISTS (SELECT 1 FROM knowledge_watches WHERE persona = $1 AND folder = $2)
       ON CONFLICT (persona, folder, path) DO UPDATE SET state = 'pending', error = NULL, updated_at = EXCLUDED.updated_at`,
      params,
    );
  }
}

export async function deleteFileRow(db: Queryable, w: WatchRow, path: string): Promise<void> {
  await db.query('DELETE FROM knowledge_watch_files WHERE persona = $1 AND folder = $2 AND path = $3', [w.persona, w.folder, path]);
}

interface ListedRow {
  folder: string;
  path: string;
  source: string;
  state: WatchFileState;
  error: string | null;
  updated_at: Date;
}

/** Each watch of the persona with its files' counts and the files worth showing. */
export async function describeWatches(
  db: Queryable,
  persona: string,
  status: (folder: string) => FolderWatch['status'],
): Promise<FolderWatch[]> {
  const watches = await personaWatches(db, persona);
  if (!watches.length) return [];
  const { rows: counts } = await db.query<{ folder: string; state: WatchFileState; n: number }>(
    'SELECT folder, state, count(*)::int AS n FROM knowledge_watch_files WHERE persona = $1 GROUP BY folder, state',
    [persona],
  );
  const { rows: files } = await db.query<ListedRow>(
    `SELECT folder, path, source, state, error, updated_at FROM (
       SELECT f.*, row_number() OVER (
         PARTITION BY folder
         ORDER BY CASE state WHEN 'error' THEN 0 WHEN 'ingesting' THEN 1 WHEN 'pending' THEN 2 ELSE 3 END, updated_at DESC, path
       ) AS n
       FROM knowledge_watch_files f WHERE persona = $1
     ) t WHERE n <= $2 ORDER BY folder, n`,
    [persona, LISTED_FILES],
  );
  return watches.map((w) => {
    const c: Record<WatchFileState, number> = { pending: 0, ingesting: 0, ingested: 0, error: 0 };
    for (const r of counts) if (r.folder === w.folder) c[r.state] = Number(r.n);
    const listed: WatchedFile[] = files
      .filter((f) => f.folder === w.folder)
      .map((f) => ({ path: f.path, source: f.source, state: f.state, error: f.error, updatedAt: toIso(f.updated_at) }));
    return { folder: w.folder, label: w.label, status: status(w.folder), counts: c, files: listed };
  });
}
