import { describe, expect, it } from 'vitest';
import { keysProtected } from './key-protection';

describe('safeStorage protection', () => {
  it("on Linux, basic_text (a fixed key) or an unknown backend does not protect keys; a keyring does", () => {
    expect(keysProtected('linux', 'basic_text')).toBe(false);
    expect(keysProtected('linux', 'unknown')).toBe(false);
    expect(keysProtected('linux', null)).toBe(false);
    expect(keysProtected('linux', 'gnome_libsecret')).toBe(true);
    expect(keysProtected('linux', 'kwallet5')).toBe(true);
  });

  it('macOS Keychain and Windows DPAPI always protect them', () => {
    expect(keysProtected('darwin', null)).toBe(true);
    expect(keysProtected('win32', null)).toBe(true);
  });
});
