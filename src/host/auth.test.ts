import { describe, expect, it } from 'vitest';
import { bearerToken, cookieName, cookieToken, isOwnHost, isOwnOrigin, sameToken, tokenCookie } from './auth';

describe('host request checks', () => {
  it('accepts only its own Host, with its own port', () => {
    expect(isOwnHost('127.0.0.1:4100', 4100)).toBe(true);
    expect(isOwnHost('localhost:4100', 4100)).toBe(true);
    for (const h of [undefined, '', '127.0.0.1', '127.0.0.1:4101', 'evil.example:4100', '0.0.0.0:4100', 'localhost.evil.example:4100']) {
      expect(isOwnHost(h, 4100), String(h)).toBe(false);
    }
  });

  it('accepts a missing Origin (navigation, curl) but only its own when present', () => {
    expect(isOwnOrigin(undefined, 4100)).toBe(true);
    expect(isOwnOrigin('http://127.0.0.1:4100', 4100)).toBe(true);
    for (const o of ['null', 'http://127.0.0.1:4101', 'https://127.0.0.1:4100', 'http://evil.example', 'http://127.0.0.1:4100.evil.example']) {
      expect(isOwnOrigin(o, 4100), o).toBe(false);
    }
  });

  it('compares tokens exactly', () => {
    expect(sameToken('secret-token-123', 'secret-token-123')).toBe(true);
    expect(sameToken('secret-token-12', 'secret-token-123')).toBe(false);
    expect(sameToken('secret-token-124', 'secret-token-123')).toBe(false);
    expect(sameToken('', 'secret-token-123')).toBe(false);
    expect(sameToken(null, 'secret-token-123')).toBe(false);
  });

  it('reads the bearer token and the port-specific cookie', () => {
    expect(bearerToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ authorization: 'Basic abc' })).toBeNull();
    expect(bearerToken({})).toBeNull();
    const cookie = `other=1; ${cookieName(4100)}=tok; ${cookieName(4200)}=else`;
    expect(cookieToken({ cookie }, 4100)).toBe('tok');
    expect(cookieToken({ cookie }, 4300)).toBeNull();
  });

  it('sets the page cookie HttpOnly and SameSite=Strict', () => {
    expect(tokenCookie(4100, 'tok')).toBe('hearth_token_4100=tok; HttpOnly; SameSite=Strict; Path=/');
  });
});
