import { randomBytes } from 'node:crypto';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDirFlag, databaseUrlFrom, defaultDataDir, workspaceDirFrom } from '../core';

export interface HostConfig {
  dataDir: string;
  /** HEARTH_DATABASE_URL / --database-url: the data on a PostgreSQL server (null: the data folder's own database). */
  databaseUrl: string | null;
  /** HEARTH_WORKSPACE_DIR / --workspace-dir: the folder the chat's model may read (null: the saved setting). */
  workspaceDir: string | null;
  /** 0 = any free port. */
  port: number;
  token: string;
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  /**
   * HEARTH_WATCH_DIRS (separated like PATH) and each --watch-dir: the folders a page may watch inside
   * (docs/watched-folders.md). Empty: the page cannot watch any folder.
   */
  watchDirs: string[];
  /** --restore-backup ID|newest: the person's answer to a refusal at start (docs/data-safety.md). */
  restoreBackup: string | null;
  /** --start-empty: start with no data although backups lie beside a missing or empty database. */
  startEmpty: boolean;
}

/** Every --watch-dir <folder> / --watch-dir=<folder>, then HEARTH_WATCH_DIRS's entries; absolute, without repeats. */
export function watchDirsFrom(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--watch-dir') {
      const next = argv[i + 1];
      if (!next || next.startsWith('--')) throw new Error('--watch-dir needs a folder after it.');
      dirs.push(next);
      i++;
    } else if (a.startsWith('--watch-dir=')) {
      dirs.push(a.slice('--watch-dir='.length));
    }
  }
  dirs.push(...(env.HEARTH_WATCH_DIRS ?? '').split(delimiter));
  return [...new Set(dirs.map((d) => d.trim()).filter(Boolean).map((d) => resolve(d)))];
}

/** `--restore-backup ID` or `--restore-backup=ID`, if given. */
function restoreBackupFlag(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--restore-backup') return argv[i + 1] ?? null;
    if (a.startsWith('--restore-backup=')) return a.slice('--restore-backup='.length);
  }
  return null;
}

const MIN_TOKEN_CHARS = 16;

/** Reads the host's settings from the environment and the command line, once, at start-up. */
export function readHostConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): HostConfig {
  const port = env.HEARTH_PORT ? Number(env.HEARTH_PORT) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`HEARTH_PORT must be a port number (0–65535), not "${env.HEARTH_PORT}".`);
  }
  const token = env.HEARTH_TOKEN || randomBytes(32).toString('base64url');
  if (token.length < MIN_TOKEN_CHARS || !/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new Error(`HEARTH_TOKEN must be at least ${MIN_TOKEN_CHARS} URL-safe characters (A–Z, a–z, 0–9, . _ ~ -).`);
  }
  const dataDir = resolve(dataDirFlag(argv) ?? (env.HEARTH_DATA_DIR || defaultDataDir(env)));
  // host.js is built into out/main; the renderer sits in out/renderer beside it.
  const rendererDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  const restoreBackup = restoreBackupFlag(argv);
  const startEmpty = argv.includes('--start-empty');
  if (restoreBackup !== null && startEmpty) throw new Error('Choose one: --restore-backup or --start-empty.');
  const workspace = workspaceDirFrom(argv, env);
  return {
    dataDir,
    databaseUrl: databaseUrlFrom(argv, env),
    workspaceDir: workspace ? resolve(workspace) : null,
    port,
    token,
    rendererDir,
    watchDirs: watchDirsFrom(argv, env),
    restoreBackup,
    startEmpty,
  };
}
