import { isAbsolute } from 'node:path';

/**
 * The files the user dropped on the window or picked in this session: the
 * only paths the page may ask the core to read. Filled by the preload (which
 * alone sees a File's real path), consulted by the IPC door; lives as long as
 * the main process. Paths are compared exactly as granted, never normalised:
 * `/a/link/../f` is not `/a/f` when `link` is a symlink.
 */
export class GrantedPaths {
  private readonly paths = new Set<string>();

  grant(path: unknown): boolean {
    if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0') || path.length > 4096) return false;
    this.paths.add(path);
    return true;
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  get size(): number {
    return this.paths.size;
  }
}
