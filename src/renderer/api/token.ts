const KEY = 'hearth.token';

/**
 * The host's token arrives once as ?token= in the page URL. Keep it for this
 * tab (a reload must keep working) and take it out of the address bar so it
 * does not end up in history or screenshots.
 */
export function takeHostToken(win: Window): string | null {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    win.sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return win.sessionStorage.getItem(KEY);
}
