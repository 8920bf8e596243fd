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

  it('knows common paraphrases: a specialist word and its plain words, synonyms, irregular verbs, place names', () => {
    const same: [string, string][] = [
      ['User has high blood pressure.', 'User suffers from hypertension.'],
      ['User is afraid of spiders.', 'User has arachnophobia.'],
      ["User doesn't drink alcohol.", 'User is teetotal.'],
      ["User's bike was stolen last week.", "Someone stole the user's bike last week."],
      ['User is renovating the kitchen.', 'User is redoing their kitchen.'],
      ["User's parents are divorced.", "User's mother and father are divorced."],
      ['User has never been to America.', 'User has not visited the United States.'],
      ['User is gluten-free.', 'User avoids gluten.'],
      ["User's wife is called Maria.", 'User is married to Maria.'],
      ['User is vegetarian.', "User doesn't eat meat or fish."],
      ["User's mother tongue is Polish.", "User's native language is Polish."],
      ['User is into jazz.', 'User likes jazz.'],
      ['User has GERD.', 'User suffers from acid reflux.'],
      ['User is twenty-five.', 'User is 25.'],
      ['User has lunch at noon.', 'User has lunch at 12 pm.'],
      ['User wakes up at 7am.', 'User wakes up at 7 a.m.'],
      ['User is in charge of the Berlin team.', 'User manages the Berlin team.'],
    ];
    for (const [a, b] of same) expect(isNearDuplicate(a, b, null), `${a} ~ ${b}`).toBe(true);
  });

  it('keeps the neighbours of those paraphrases apart, even when the model finds them close', () => {
    const apart: [string, string][] = [
      ['User has hypertension.', 'User has low blood pressure.'],
      ['User has hypertension.', 'User has high cholesterol.'],
      ['User has arachnophobia.', 'User is afraid of snakes.'],
      ['User is vegetarian.', 'User is vegan.'],
      ['User is vegetarian.', 'User is pescatarian.'],
      ['User is teetotal.', "User doesn't drink coffee."],
      ["User's bike was stolen in March.", 'User sold their bike in March.'],
      ['User is married to Maria.', 'User is engaged to Maria.'],
      ['User has been to the United States.', 'User has been to the United Kingdom.'],
      ['User has been to South America.', 'User has been to the United States.'],
      ['User is sugar-free.', 'User is gluten-free.'],
      ['User is short-sighted.', 'User is long-sighted.'],
      ['User gave up smoking.', 'User smokes.'],
      ['User has hypoglycemia.', 'User has high blood sugar.'],
      ['User has an underactive thyroid.', 'User has hyperthyroidism.'],
      ['User is forty.', 'User is 41.'],
      // Liking or learning a thing is not doing it.
      ['User prefers to work from home.', 'User works from home.'],
      ['User is learning to drive.', 'User drives to work.'],
      ['User is into jazz.', 'User plays jazz.'],
    ];
    for (const [a, b] of apart) expect(isNearDuplicate(a, b, 0.95), `${a} ~ ${b}`).toBe(false);
  });

  it('takes the same content words after folding with a lower cosine, but not any cosine', () => {
    expect(isNearDuplicate("User doesn't drink alcohol.", 'User is teetotal.', 0.59)).toBe(true);
    expect(isNearDuplicate("User doesn't drink alcohol.", 'User is teetotal.', 0.3)).toBe(false);
  });
});
