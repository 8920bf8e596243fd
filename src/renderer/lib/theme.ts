// The colour theme: follow the system, or always light or dark. The choice is a setting, kept
// with the data (so it holds in every window and across launches of the browser host, whose
// port and so local storage change each start); local storage keeps a copy for
// public/theme-boot.js, which applies it before the first paint. base.css styles <html data-theme>.
import type { Theme } from '../../shared/settings';

export type { Theme };

const KEY = 'hearth.theme';

/** The copy kept on this screen: what the page was drawn with before the settings arrived. */
export function currentTheme(): Theme {
  try {
    const t = window.localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
  try {
    if (theme === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, theme);
  } catch {
    // Storage disabled: the setting still applies once the page has read it.
  }
}
