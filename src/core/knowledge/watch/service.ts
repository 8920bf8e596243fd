// Keeps each stored watch's folder ingested (docs/watched-folders.md): one
// chokidar watcher per watch, a debounce per file, and one file read at a time
// across all watches (parsing is CPU-bound, like the ingest queue's).
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { AppError, isAppError } from '../../../shared/errors';
import type { CoreContext, FolderWatcher } from '../../context';
import { inspectFile } from '../../parse/inspect';
import { parseError } from '../../parse/errors';
import { readSettings } from '../../settings/store';
import { chunkDocument } from '../chunk';
import { keyedChunks } from '../keyed-chunks';
import { deleteSource, replaceSource } from '../store';
import { hashFile, insidePath, isDocument, isHidden, listDocuments } from './files';
import { addPending, allWatches, deleteFileRow, fileRow, setFileState, type WatchRow, watchFiles } from './store';

export interface WatchServiceOptions {
  /** How long a file must stay unchanged before it is read (the spec's bound is 5 s from the last change). */
  debounceMs: number;
  /** How often a watch whose folder is missing looks for it again. */
  missingRetryMs: number;
}

export const DEFAULT_WATCH_OPTIONS: WatchServiceOptions = { debounceMs: 1000, missingRetryMs: 30_000 };

const key = (persona: string, folder: string) => `${persona}\u0000${folder}`;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** One watched folder: its chokidar watcher and its files' debounce timers. */
class Watch {
  status: 'watching' | 'missing' = 'watching';
  stopped = false;
  private watcher: FSWatcher | null = null;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private retry: NodeJS.Timeout | null = null;
  private notifyTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly row: WatchRow,
    private readonly service: FolderWatchService,
  ) {}

  source(rel: string): string {
    return `${this.row.label}/${rel}`;
  }

  async folderReadable(): Promise<boolean> {
    const ok = await stat(this.row.folder).then((s) => s.isDirectory(), () => false);
    if (ok) return true;
    if (this.status !== 'missing') {
      this.status = 'missing';
      this.notify();
    }
    // A folder removed and made again is a new folder to the system: it gets a new watcher once it is back.
    const old = this.watcher;
    this.watcher = null;
    await old?.close();
    this.retryLater();
    return false;
  }

  private retryLater(): void {
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start().catch((e: unknown) => this.service.warn(this, e));
    }, this.service.options.missingRetryMs);
    this.retry.unref();
  }

  /** Watches, then reconciles what changed while nobody watched (new, changed, gone: by hash). */
  async start(): Promise<void> {
    if (this.stopped || !(await this.folderReadable())) return;
    // Loaded by the first watch rather than at start (docs/startup.md).
    const { watch } = await import('chokidar');
    if (this.stopped) return;
    if (!this.watcher) {
      const folder = this.row.folder;
      const watcher = watch(folder, {
        ignoreInitial: true,
        followSymlinks: false,
        // Nothing hidden, and of files only documents: fewer things watched, no event for the rest.
        ignored: (p, stats) => {
          const rel = insidePath(folder, p);
          if (rel === null) return false;
          return isHidden(rel) || (!!stats?.isFile() && !isDocument(rel));
        },
      });
      watcher.on('all', (event, p) => {
        const rel = insidePath(folder, p);
        if (rel === null) return;
        if (event === 'unlinkDir') void this.folderGone(rel).catch((e: unknown) => this.service.warn(this, e));
        else if ((event === 'add' || event === 'change' || event === 'unlink') && isDocument(rel)) this.touch(rel);
      });
      watcher.on('error', (e) => this.service.warn(this, e));
      this.watcher = watcher;
      await new Promise<void>((resolve) => watcher.once('ready', resolve));
    }
    if (this.status !== 'watching') {
      this.status = 'watching';
      this.notify();
    }
    await this.reconcile();
  }

  private async reconcile(): Promise<void> {
    const { db } = this.service.ctx;
    let present: string[];
    try {
      present = await listDocuments(this.row.folder);
    } catch {
      // Unreadable now: nothing is taken for gone.
      await this.folderReadable();
      return;
    }
    const known = await watchFiles(db, this.row);
    const fresh: { path: string; source: string }[] = [];
    const check: string[] = [];
    for (const rel of present) {
      const row = known.get(rel);
      if (!row) fresh.push({ path: rel, source: this.source(rel) });
      else if (row.state !== 'ingested' || row.hash !== (await hashFile(join(this.row.folder, rel)).catch(() => null))) check.push(rel);
    }
    const here = new Set(present);
    const gone = [...known.keys()].filter((rel) => !here.has(rel));
    if (fresh.length) {
      await addPending(db, this.row, fresh, this.service.ctx.now());
      this.notify();
    }
    for (const rel of [...fresh.map((f) => f.path), ...check, ...gone]) this.service.enqueue(this, rel);
  }

  /** A file changed (or appeared, or went): read it once it has been quiet for the debounce. */
  touch(rel: string): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(rel));
    const t = setTimeout(() => {
      this.timers.delete(rel);
      this.service.enqueue(this, rel);
    }, this.service.options.debounceMs);
    t.unref();
    this.timers.set(rel, t);
  }

  /** A subfolder went: each file known under it is looked at (chokidar may not name them one by one). */
  private async folderGone(rel: string): Promise<void> {
    const known = await watchFiles(this.service.ctx.db, this.row);
    for (const path of known.keys()) if (path.startsWith(`${rel}/`)) this.touch(path);
  }

  /** Tells pages the watch's files changed state: at most a few times a second. */
  notify(): void {
    if (this.notifyTimer || this.stopped) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.service.ctx.events.emit('knowledge.watch', { persona: this.row.persona, folder: this.row.folder });
    }, 250);
    this.notifyTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    if (this.retry) clearTimeout(this.retry);
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    await this.watcher?.close();
    this.watcher = null;
  }
}

/** The core's FolderWatcher (src/core/context.ts): built and closed by src/core/app/services.ts. */
export class FolderWatchService implements FolderWatcher {
  private readonly watches = new Map<string, Watch>();
  private readonly queue: { watch: Watch; rel: string }[] = [];
  private readonly queued = new Set<string>();
  private working: Promise<void> | null = null;
  private draining = false;
  private syncing: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    readonly ctx: CoreContext,
    readonly options: WatchServiceOptions = DEFAULT_WATCH_OPTIONS,
  ) {
    // A deleted persona's watches went with it (ON DELETE CASCADE): their watchers stop.
    this.unsubscribe = ctx.events.subscribe((name) => {
      if (name === 'personas.changed') void this.sync().catch((e: unknown) => console.warn('Hearth: watched folders:', message(e)));
    });
  }

  status(persona: string, folder: string): 'watching' | 'missing' {
    return this.watches.get(key(persona, folder))?.status ?? 'missing';
  }

  sync(): Promise<void> {
    const run = this.syncing.then(async () => {
      if (this.closed) return;
      const rows = await allWatches(this.ctx.db);
      const stored = new Set(rows.map((r) => key(r.persona, r.folder)));
      for (const [k, w] of [...this.watches]) {
        if (stored.has(k)) continue;
        this.watches.delete(k);
        await w.stop();
      }
      for (const row of rows) {
        const k = key(row.persona, row.folder);
        if (this.watches.has(k)) continue;
        const w = new Watch(row, this);
        this.watches.set(k, w);
        await w.start().catch((e: unknown) => this.warn(w, e));
      }
    });
    this.syncing = run.catch(() => undefined);
    return run;
  }

  warn(w: Watch, e: unknown): void {
    if (!this.closed && !w.stopped) console.warn(`Hearth: watching ${w.row.folder}:`, message(e));
  }

  enqueue(watch: Watch, rel: string): void {
    const k = `${key(watch.row.persona, watch.row.folder)}\u0000${rel}`;
    if (this.closed || watch.stopped || this.queued.has(k)) return;
    this.queued.add(k);
    this.queue.push({ watch, rel });
    if (!this.draining) {
      this.draining = true;
      this.working = this.drain();
    }
  }

  private async drain(): Promise<void> {
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        this.queued.delete(`${key(next.watch.row.persona, next.watch.row.folder)}\u0000${next.rel}`);
        if (this.closed) return;
        if (next.watch.stopped) continue;
        await this.process(next.watch, next.rel).catch((e: unknown) => this.warn(next.watch, e));
      }
    } finally {
      // In the same turn as the last look at the queue: a file queued from now on starts a new drain.
      this.draining = false;
    }
  }

  /** Brings one file's source in line with the file: ingested, replaced, trashed, or left alone. */
  private async process(w: Watch, rel: string): Promise<void> {
    const { ctx } = this;
    const abs = join(w.row.folder, rel);
    // An unplugged drive or a renamed folder is not every file deleted: nothing goes until it is back.
    if (!(await w.folderReadable())) return;
    let hash: string | null;
    try {
      hash = await hashFile(abs);
    } catch (e) {
      await setFileState(ctx.db, w.row, { path: rel, source: w.source(rel), state: 'error', error: `"${rel}" cannot be read: ${message(e)}` }, ctx.now());
      w.notify();
      return;
    }
    const row = await fileRow(ctx.db, w.row, rel);
    if (hash === null) {
      if (!row) return;
      await deleteSource(ctx, w.row.persona, row.source, { actor: 'user', reason: `"${rel}" was removed from the watched folder ${w.row.folder}` }).catch(
        (e: unknown) => {
          // Never ingested (it failed, or was still waiting): there is no source to trash.
          if (!(isAppError(e) && e.code === 'not_found')) throw e;
        },
      );
      await deleteFileRow(ctx.db, w.row, rel);
      w.notify();
      return;
    }
    // A touch, or a save without changes: the content decides.
    if (row && row.state === 'ingested' && row.hash === hash) return;
    const source = w.source(rel);
    await setFileState(ctx.db, w.row, { path: rel, source, state: 'ingesting' }, ctx.now());
    w.notify();
    try {
      await this.ingest(w, rel, abs, source);
      await setFileState(ctx.db, w.row, { path: rel, source, state: 'ingested', hash }, ctx.now());
    } catch (e) {
      if (this.closed) return;
      const why = message(e);
      // Parse errors already name the file; others get its name here.
      const error = why.includes(rel) ? why : `"${rel}": ${why}`;
      await setFileState(ctx.db, w.row, { path: rel, source, state: 'error', error }, ctx.now());
    }
    w.notify();
  }

  private async ingest(w: Watch, rel: string, abs: string, source: string): Promise<void> {
    const { ctx } = this;
    const { maxIngestBytes } = await readSettings(ctx);
    const facts = await inspectFile(abs, rel, maxIngestBytes);
    const doc = await ctx.parser.parse(abs, { kind: facts.kind, name: rel, signal: this.abort.signal });
    const chunks = chunkDocument(doc.segments);
    if (chunks.length === 0) throw parseError('empty', `"${rel}" holds no text to ingest.`);
    this.abort.signal.throwIfAborted();
    if (w.stopped) throw new AppError('cancelled', 'The watch was removed.');
    await replaceSource(ctx, {
      persona: w.row.persona,
      source,
      kind: doc.kind,
      bytes: facts.bytes,
      pages: doc.pages,
      chunks: keyedChunks(chunks, basename(rel), { pdf: doc.kind === 'pdf' }),
    });
  }

  /** Stops every watcher; a file being read is abandoned (the next start reconciles it). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    this.abort.abort();
    await this.syncing;
    await Promise.all([...this.watches.values()].map((w) => w.stop()));
    this.watches.clear();
    this.queue.length = 0;
    await this.working?.catch(() => undefined);
  }
}
