import { homedir } from 'node:os';
import { join } from 'node:path';

/** The product name used for the per-user data folder (Electron's userData uses the same). */
export const APP_DIR_NAME = 'Hearth';

/**
 * The OS per-user app-data folder, the same one Electron's
 * app.getPath('userData') names, so the browser host and the desktop app
 * open the same data by default.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), APP_DIR_NAME);
}

/** `--data-dir DIR` or `--data-dir=DIR` from a command line, if given. */
export function dataDirFlag(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir') return argv[i + 1] ?? null;
    if (a.startsWith('--data-dir=')) return a.slice('--data-dir='.length);
  }
  return null;
}

/**
 * A PostgreSQL server to keep the data on (docs/server-mode.md):
 * `--database-url URL` / `--database-url=URL`, else HEARTH_DATABASE_URL; null
 * for the data folder's own database. The environment keeps a password out of
 * the process list, so the README recommends it.
 */
export function databaseUrlFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--database-url') return argv[i + 1]?.trim() || null;
    if (a.startsWith('--database-url=')) return a.slice('--database-url='.length).trim() || null;
  }
  return env.HEARTH_DATABASE_URL?.trim() || null;
}

/**
 * The chat's workspace folder for the browser host (docs/security.md): `--workspace-dir DIR` /
 * `--workspace-dir=DIR`, else HEARTH_WORKSPACE_DIR; null leaves the saved setting as it is. The
 * browser's page cannot set it: this, or the desktop app's folder dialog, are the only ways.
 */
export function workspaceDirFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--workspace-dir') return argv[i + 1]?.trim() || null;
    if (a.startsWith('--workspace-dir=')) return a.slice('--workspace-dir='.length).trim() || null;
  }
  return env.HEARTH_WORKSPACE_DIR?.trim() || null;
}
