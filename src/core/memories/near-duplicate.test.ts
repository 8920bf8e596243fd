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

  it('knows idioms for sleep, upbringing, age, family size, commuting, money, dates and times', () => {
    const same: [string, string][] = [
      ['User is lactose intolerant.', "User can't digest lactose."],
      ['User has two kids.', 'User is a parent of two.'],
      ['User grew up in Manchester.', 'User spent their childhood in Manchester.'],
      ['User is 34 years old.', "User's age is 34."],
      ['User goes to bed around 11 pm.', 'User usually turns in at about 11 at night.'],
      ['User goes to bed at 11 pm.', 'User goes to sleep around 23:00.'],
      ['User wakes up at 6:30.', 'User wakes up at half past six.'],
      ["User's rent is 1,200 euros a month.", 'User pays €1200 per month in rent.'],
      ["User's salary is $85,000 a year.", 'User earns 85k a year.'],
      ['User runs 10 km on Sundays.', 'User goes for a 10k run on Sundays.'],
      ["User's son Leo was born on 4 May 2019.", "User's son Leo was born on 2019-05-04."],
      ["User's blood type is O negative.", 'User has O- blood.'],
      ["User's blood type is O negative.", "User's blood group is O-negative."],
      ['User walks to work.', 'User commutes on foot.'],
      ['User walks to work.', 'User goes to work on foot.'],
      ['User supports Arsenal.', 'User roots for Arsenal.'],
      ['User is pregnant with their second child.', 'User is expecting their second baby.'],
      ['User is pregnant with their second child.', 'User is expecting baby number two.'],
      ['User is afraid of dogs.', 'Dogs frighten the user.'],
      ['User meditates every morning.', 'User does a meditation every morning.'],
      ['User calls their grandmother every Sunday.', 'User phones their grandma every Sunday.'],
      ['User is training for the Paris marathon.', 'User is preparing for the Paris marathon.'],
      ['User meets their manager every Monday.', 'User has a meeting with their manager every Monday.'],
      ['User is a big fan of sci-fi novels.', 'User loves science fiction books.'],
      ['User speaks a little Japanese.', 'User knows some basic Japanese.'],
      ['User quit smoking in 2020.', 'User gave up cigarettes in 2020.'],
      ['User is saving up for a house.', 'User is putting money aside for a house.'],
      ['User drives a Toyota Corolla.', "User's car is a Toyota Corolla."],
      ['User was born on March 14.', "User's birthday is on March 14."],
    ];
    for (const [a, b] of same) expect(isNearDuplicate(a, b, null), `${a} ~ ${b}`).toBe(true);
  });

  it('keeps the look-alikes of those idioms apart, even when the model finds them close', () => {
    const apart: [string, string][] = [
      // Another relative, another time, another amount, another blood group.
      ["User's father lives in Seville.", "User's father-in-law lives in Seville."],
      ['User wakes up at 6:30.', 'User wakes up at half past seven.'],
      ['User goes to bed at 23:00.', 'User goes to bed at 11 am.'],
      ["User's rent is 1,200 euros a month.", "User's rent is 1,500 euros a month."],
      ["User's blood type is O negative.", "User's blood type is O positive."],
      ["User's blood type is O negative.", "User's blood type is A negative."],
      ['User is expecting their second baby.', 'User is pregnant with their third child.'],
      ['User runs a 10k race every spring.', 'User runs a 5 km race every spring.'],
      // Leaving a place, having died, a past state: not the present fact.
      ['User moved to Berlin in 2018.', 'User moved away from Berlin in 2018.'],
      ["User's mother has Alzheimer's.", "User's mother died of Alzheimer's."],
      ['User has been vegan for five years.', 'User was vegan for five years.'],
      ["User's salary is $85,000 a year.", "User's salary was $85,000 a year."],
      // Being allergic to or afraid of a thing is not having it.
      ['User is allergic to cats.', 'User has a cat.'],
      ["User's sister Nina is a dentist.", "User's sister Nina is afraid of the dentist."],
      // A narrower fact: a portion, a day of the week, a condition.
      ['User is training for a marathon in October.', 'User is training for a half marathon in October.'],
      ['User goes to bed around 11 pm.', 'User goes to bed around 11 pm on weekends.'],
      ['User walks to work.', "User walks to work when it's sunny."],
      ['User speaks a little Japanese.', 'User speaks fluent Japanese.'],
      ['User knows some Japanese.', 'User knows some Korean.'],
      // Phoning is not visiting.
      ['User calls their grandmother every Sunday.', 'User visits their grandmother every Sunday.'],
    ];
    for (const [a, b] of apart) expect(isNearDuplicate(a, b, 0.95), `${a} ~ ${b}`).toBe(false);
  });

  it('keeps a narrower, counted, qualified or other-placed fact apart from the broader one, even when the model finds them close', () => {
    const apart: [string, string][] = [
      // A kind of the thing, an extent, a rank.
      ['User loves coffee.', 'User loves iced coffee.'],
      ['User is Catholic.', 'User is a practising Catholic.'],
      ['User is vegan.', 'User is mostly vegan.'],
      ["User's father is a teacher.", "User's father is a retired teacher."],
      // A count on one side only.
      ['User has a dog.', 'User has three dogs.'],
      // A phrase that narrows to an occasion or adds a thing.
      ['User likes dark chocolate.', 'User likes dark chocolate with sea salt.'],
      ['User takes a nap after lunch.', 'User takes a nap.'],
      // Living is not working, studying, volunteering or being from there.
      ['User works in Lille.', 'User lives in Lille.'],
      ['User works as a nurse.', 'User studied nursing.'],
      ['User has been working at the library for six years.', 'User has been volunteering at the library for six years.'],
      ["User's grandparents live in Galway.", "User's grandparents are from Galway."],
      // Another destination.
      ['User cycles to work in summer.', 'User cycles to the gym in summer.'],
      // One occasion or one place in a row.
      ['User goes skiing every February.', 'User went skiing last February.'],
      ['User has a pacemaker.', 'User is getting a pacemaker next month.'],
      ['User is the youngest of four siblings.', 'User has four siblings.'],
      // A state that ended, a debt paid, saving for a thing.
      ['User has been working at the library for six years.', 'User worked at the library for six years.'],
      ['User has a mortgage with ING.', 'User paid off their mortgage with ING.'],
      ['User is saving for a trip to Peru.', 'User went on a trip to Peru.'],
      // Getting up is not going to bed.
      ["User's kids go to bed at 8.", "User's kids get up at 8."],
    ];
    for (const [a, b] of apart) expect(isNearDuplicate(a, b, 0.95), `${a} ~ ${b}`).toBe(false);
  });

  it('still takes the broader and the fuller wording of one fact as one', () => {
    const same: [string, string][] = [
      ['User likes jazz.', 'User enjoys jazz music.'],
      ['User keeps kosher.', 'User follows a kosher diet.'],
      ['User lives with type 1 diabetes.', 'User has type 1 diabetes.'],
      ['User visits their parents once a month.', 'User sees their parents monthly.'],
      ['User has been vegan for five years.', 'User has followed a vegan diet for 5 years.'],
      ['User drinks oat milk in their coffee.', 'User has their coffee with oat milk.'],
      ['User is saving for a house.', 'User is putting money aside to buy a house.'],
      ['User is a nurse.', 'User works as a nurse.'],
      ['User is a teacher.', 'User works as a teacher.'],
    ];
    for (const [a, b] of same) expect(isNearDuplicate(a, b, 0.9), `${a} ~ ${b}`).toBe(true);
  });

  it('knows idioms for hearing, rising early, sweets, birthplace, lessons, appointments, units and in-laws', () => {
    const same: [string, string][] = [
      ['User is hard of hearing.', 'User has hearing loss.'],
      ['User is an early riser.', 'User gets up early.'],
      ['User has a sweet tooth.', 'User loves sweets.'],
      ['User was born in Krakow.', "User's birthplace is Krakow."],
      ['User was born in Krakow.', 'User is a native of Krakow.'],
      ["User's son is learning to swim.", "User's son is taking swimming lessons."],
      ['User has an appointment with the dermatologist on 14 March.', 'User sees the dermatologist on March 14.'],
      ['User drinks two litres of water a day.', 'User drinks 2 l of water a day.'],
      ['User weighs 70 kg.', "User's weight is 70 kilograms."],
      ['User is sensitive to caffeine.', 'User has a caffeine sensitivity.'],
      ["User's in-laws live next door.", "User's parents-in-law live next door."],
      ['User drives an electric car.', 'User drives an EV.'],
      ['User has lunch at 1 pm.', "User eats lunch at one o'clock."],
      ['User used to smoke.', 'User smoked in the past.'],
    ];
    for (const [a, b] of same) expect(isNearDuplicate(a, b, null), `${a} ~ ${b}`).toBe(true);
  });

  it('keeps the look-alikes of those idioms apart', () => {
    const apart: [string, string][] = [
      ['User is hard of hearing.', "User's grandfather is hard of hearing."],
      ['User was born in Krakow.', 'User lives in Krakow.'],
      ['User was born in Krakow.', 'User grew up in Krakow.'],
      ["User's son is taking swimming lessons.", "User's son teaches swimming lessons."],
      ['User has an appointment with the dermatologist on 14 March.', 'User has an appointment with the dermatologist on 14 May.'],
      ['User drinks two litres of water a day.', 'User drinks three litres of water a day.'],
      ['User drives an electric car.', 'User drives a hybrid car.'],
      ['User has lunch at 1 pm.', 'User has lunch at 1 am.'],
      ['User used to smoke.', 'User smokes.'],
    ];
    for (const [a, b] of apart) expect(isNearDuplicate(a, b, 0.95), `${a} ~ ${b}`).toBe(false);
  });

  it('takes the same content words after folding with a lower cosine, but not any cosine', () => {
    expect(isNearDuplicate("User doesn't drink alcohol.", 'User is teetotal.', 0.59)).toBe(true);
    expect(isNearDuplicate("User doesn't drink alcohol.", 'User is teetotal.', 0.3)).toBe(false);
  });
});
