// The colour theme: follow the system, or always light or dark. A choice of this screen
// (kept in the browser's storage, as the active persona is), read before the first paint by
// public/theme-boot.js; base.css styles <html data-theme>.

export type Theme = 'system' | 'light' | 'dark';

const KEY = 'hearth.theme';

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
    // Storage disabled: the choice holds until the page reloads.
  }
}
