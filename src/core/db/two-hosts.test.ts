import { describe, expect, it } from 'vitest';
import { hostsTogether } from '../testing/lock-race';

describe('two real hosts started together on one data folder', () => {
  it('never both serve: exactly one comes up, the other says the folder is in use (2 rounds here, an empty folder then a migrated one; bench:faults runs more)', async () => {
    const r = await hostsTogether(2, 'free', { migratedEveryOther: true });
    expect(r).toMatchObject({ bothServed: 0, oneServed: 2 });
    expect(r.refusal).toMatch(/already in use by another Hearth|taking it over right now/);
  }, 900_000);
});
