import { describe, expect, it } from 'vitest';
import { isNearDuplicate } from './near-duplicate';

// The text part of the rule (no vectors): what it decides whatever the cosine says.
describe('near-duplicate rule', () => {
  it('takes the same fact in other words as one', () => {
    expect(isNearDuplicate('User is allergic to peanuts.', 'User has a peanut allergy.', null)).toBe(true);
    expect(isNearDuplicate("User's favourite colour is green.", "User's favorite color is green.", null)).toBe(true);
    expect(isNearDuplicate('User lives in Lyon.', 'The user lives in Lyon, France.', null)).toBe(true);
    expect(isNearDuplicate('User is allergic to peanuts.', 'user is allergic to peanuts', null)).toBe(true);
  });

  it('keeps related facts apart, even when the model finds them close', () => {
    expect(isNearDuplicate('User is allergic to peanuts.', 'User is allergic to shellfish.', 0.99)).toBe(false);
    expect(isNearDuplicate('User meets Ana on Tuesday.', 'User meets Ana on Thursday.', 0.99)).toBe(false);
    expect(isNearDuplicate('User likes jazz.', 'User no longer likes jazz.', 0.99)).toBe(false);
    expect(isNearDuplicate('User has two cats.', 'User has three cats.', 0.99)).toBe(false);
    expect(isNearDuplicate('User has a daughter named Ada.', 'User has a daughter named Eva.', 0.99)).toBe(false);
    expect(isNearDuplicate('User lives in Lyon.', 'User used to live in Lyon.', 0.99)).toBe(false);
    expect(isNearDuplicate("User's mother lives in Porto.", "User's father lives in Porto.", 0.99)).toBe(false);
    expect(isNearDuplicate('User prefers tea over coffee.', 'User prefers coffee over tea.', 0.99)).toBe(false);
    expect(isNearDuplicate('User wants to visit Japan next year.', 'User visited Japan last year.', 0.99)).toBe(false);
  });

  it('asks the model when vectors are there: a veto-free pair far apart is not merged', () => {
    expect(isNearDuplicate('User likes jazz.', 'User enjoys jazz music.', 0.87)).toBe(true);
    expect(isNearDuplicate('User likes jazz.', 'User enjoys jazz music.', 0.2)).toBe(false);
  });
});
