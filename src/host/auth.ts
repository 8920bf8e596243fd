import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// Pure checks on a request's headers, kept apart from the server so that
// each rule can be tested on its own.

/** The Host names a browser uses for this host; anything else is DNS rebinding or a mix-up. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** A missing Origin is a same-origin navigation or a non-browser client; a present one must be ours. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return m ? m[1]! : null;
}

/** Cookies are not port-scoped, so the name carries the port: two hosts never overwrite each other's. */
export function cookieName(port: number): string {
  return `hearth_token_${port}`;
}

export function cookieToken(headers: IncomingHttpHeaders, port: number): string | null {
  const name = cookieName(port);
  for (const part of (headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function queryToken(url: URL): string | null {
  return url.searchParams.get('token');
}

export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
