import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { CoreContext } from '../context';
import { parseError } from '../parse/errors';
import { sizeText } from './size-text';

/**
 * Uploaded files (browser host) wait on disk for their ingest job, never as
 * base64 in the jobs table: `<dataDir>/uploads/`, or a temp folder for an
 * in-memory core.
 */
export function uploadsDir(ctx: Pick<CoreContext, 'dataDir'>): string {
  return ctx.dataDir ? join(ctx.dataDir, 'uploads') : join(tmpdir(), 'hearth-uploads');
}

async function newStagingPath(ctx: Pick<CoreContext, 'dataDir'>, name: string): Promise<string> {
  const dir = uploadsDir(ctx);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ext = extname(name).toLowerCase().replace(/[^.a-z0-9]/g, '').slice(0, 12);
  return join(dir, `${randomUUID()}${ext}`);
}

export async function stageUpload(ctx: Pick<CoreContext, 'dataDir'>, name: string, bytes: Uint8Array): Promise<string> {
  const path = await newStagingPath(ctx, name);
  try {
    await writeFile(path, bytes, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    await removeStaged(path);
    throw e;
  }
  return path;
}

export async function removeStaged(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** A staged upload: where it is, its size and its first bytes (for type detection). */
export interface StagedFile {
  path: string;
  bytes: number;
  head: Uint8Array;
}

const HEAD_BYTES = 1024;

/**
 * An upload written to its staging file piece by piece as it arrives, so a
 * big file is never held whole in memory. Refuses the piece that would take
 * it past `maxBytes` (nothing of it is written) and removes the file on
 * discard.
 */
export class StagingWriter {
  private size = 0;
  private head = new Uint8Array(0);
  private done = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly label: string,
    private readonly maxBytes: number,
  ) {}

  /** `name`: the file's name when known (for its extension and messages). */
  static async open(ctx: Pick<CoreContext, 'dataDir'>, name: string | null, maxBytes: number): Promise<StagingWriter> {
    const path = await newStagingPath(ctx, name ?? '');
    return new StagingWriter(path, await open(path, 'wx', 0o600), name ? `"${name}"` : 'The upload', maxBytes);
  }

  get bytes(): number {
    return this.size;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.size + chunk.length > this.maxBytes) {
      throw parseError('too_large', `${this.label} is larger than the ${sizeText(this.maxBytes)} limit (Settings → maximum file size).`);
    }
    if (this.head.length < HEAD_BYTES) {
      const more = chunk.subarray(0, HEAD_BYTES - this.head.length);
      const head = new Uint8Array(this.head.length + more.length);
      head.set(this.head);
      head.set(more, this.head.length);
      this.head = head;
    }
    let off = 0;
    while (off < chunk.length) {
      const { bytesWritten } = await this.handle.write(chunk, off, chunk.length - off);
      off += bytesWritten;
    }
    this.size += chunk.length;
  }

  async finish(): Promise<StagedFile> {
    this.done = true;
    await this.handle.close();
    return { path: this.path, bytes: this.size, head: this.head };
  }

  /** Closes and removes the partial file (safe to call after finish or twice). */
  async discard(): Promise<void> {
    if (!this.done) {
      this.done = true;
      await this.handle.close().catch((e: unknown) => console.warn(`staging: closing ${this.path} failed:`, e));
    }
    await removeStaged(this.path);
  }
}
