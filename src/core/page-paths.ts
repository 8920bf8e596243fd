import type { Envelope, Method } from '../shared/api';

// A page (the renderer, or anything holding the browser host's token) may not
// make Hearth read a file on this computer by naming its path: the door it came
// through decides. The browser host accepts uploaded bytes only; Electron
// accepts a path the user dropped or picked in this session (a workspace
// folder: picked in the app's own folder dialog). Trusted callers
// inside the core (the chat tool's workspace) call the core directly.
// See docs/security.md.

/** The argument of each method that names a file or folder on this computer. */
const PATH_ARGUMENTS: Partial<Record<Method, string>> = {
  'knowledge.ingest': 'path',
  'personas.import': 'path',
  // The browser host lets it through to the core, which allows only folders inside the host's launch
  // folders (ctx.watchDirs, docs/watched-folders.md); the desktop app only a folder picked in this session.
  'knowledge.watch': 'folder',
  // The folder the chat's model may read (docs/security.md): a launch option or the desktop app's own dialog.
  'settings.set': 'workspaceDir',
};

/** Arguments whose null means "none" (clearing it reaches nothing on the disk). */
const CLEARABLE: Partial<Record<Method, true>> = { 'settings.set': true };

/** The path a call asks Hearth to read, or null when it names none. */
export function requestedPath(method: string, args: unknown): string | null {
  const key = Object.prototype.hasOwnProperty.call(PATH_ARGUMENTS, method) ? PATH_ARGUMENTS[method as Method] : undefined;
  if (!key || typeof args !== 'object' || args === null || !Object.prototype.hasOwnProperty.call(args, key)) return null;
  const value = (args as Record<string, unknown>)[key];
  if (value === null && CLEARABLE[method as Method]) return null;
  // Any value counts: a non-string path is refused like a string one, before validation says more.
  return typeof value === 'string' ? value : String(value);
}

/**
 * The answer to a page that named a path it may not: the same whether or not
 * the file exists, so a refusal reveals nothing about the disk.
 */
export function pathRefused(browser: boolean, method?: string): Envelope<never> {
  if (method === 'settings.set') {
    return {
      ok: false,
      error: {
        code: 'forbidden',
        message: browser
          ? 'The browser version of Hearth takes its workspace folder only from how it was started (--workspace-dir or HEARTH_WORKSPACE_DIR), never from the page.'
          : 'Choose the workspace folder with "Choose folder…" in Settings: Hearth takes it only from its own folder dialog.',
      },
    };
  }
  return {
    ok: false,
    error: {
      code: 'forbidden',
      message: browser
        ? 'The browser version of Hearth never reads files on this computer by path: drop the file or pick it, and its contents are uploaded.'
        : 'Hearth reads a file by path only when you dropped or picked it in this session: drop it again or pick it.',
    },
  };
}

/**
 * A door's guard: the refusal when the call names a path `mayRead` does not
 * allow, else null (go ahead and dispatch).
 */
export function guardPagePaths(
  method: string,
  args: unknown,
  mayRead: (path: string) => boolean,
  browser: boolean,
): Envelope<never> | null {
  const path = requestedPath(method, args);
  return path !== null && !mayRead(path) ? pathRefused(browser, method) : null;
}
