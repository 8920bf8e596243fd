// Runs before the page is drawn (a plain script in <head>): the theme chosen in Settings →
// Appearance is on <html> before the first paint, so a dark choice never flashes light.
// The same key and values as src/renderer/lib/theme.ts.
try {
  var t = window.localStorage.getItem('hearth.theme');
  if (t === 'light' || t === 'dark') document.documentElement.setAttribute('data-theme', t);
} catch (e) {
  // Storage disabled: the theme follows the system.
}
