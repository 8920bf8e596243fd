/**
 * The page's Content-Security-Policy, shared by the Electron window and the
 * browser host: only the app's own scripts and styles, no eval, no inline
 * script, no framing, network only to the app itself (plus `connect`).
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${connect.length ? ` ${connect.join(' ')}` : ''}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The same policy for the page's own <meta> tag: without `frame-ancestors`, which a meta
 * policy cannot carry (the browser ignores it there and logs an error on every load).
 * Framing is refused by the header, which both doors send.
 */
export function metaContentSecurityPolicy(): string {
  return contentSecurityPolicy()
    .split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
}
