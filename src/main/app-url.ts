import { resolveStatic } from '../host/static';

// The desktop app loads its page from app://hearth/ rather than file://: a
// real origin of its own (file:// pages share "null"), and a handler that can
// only answer with files inside the renderer build. Plain Node, so it is tested
// without Electron.

export const APP_SCHEME = 'app';
export const APP_HOST = 'hearth';

/** The renderer file an app:// URL names, or null (another host, outside the folder, missing). */
export function appFile(rendererDir: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  // The raw path, before URL parsing folded "..": resolveStatic refuses anything that leaves the folder.
  const raw = url.slice(`${APP_SCHEME}://${APP_HOST}`.length).split(/[?#]/)[0] ?? '/';
  return resolveStatic(rendererDir, raw || '/');
}
