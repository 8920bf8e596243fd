import { describe, expect, it } from 'vitest';
import { inRanges, timeRanges, widen } from './time-query';

// Recall reads times relative to its own clock: here a Sunday in August.
const TODAY = new Date('2023-08-20T12:00:00Z');
const r = (q: string) => timeRanges(q, TODAY);

describe('time expressions in a question become day ranges', () => {
  it('reads a full date as that day', async () => {
    expect(await r('What did she show me on October 13, 2022?')).toEqual([{ from: '2022-10-13', to: '2022-10-13' }]);
  });

  it('reads a month and year as the whole month', async () => {
    expect(await r('What did John host in May 2023?')).toEqual([{ from: '2023-05-01', to: '2023-05-31' }]);
  });

  it('reads a month without a year as the latest such month and the one before', async () => {
    expect(await r('When did we go camping in June?')).toEqual([
      { from: '2023-06-01', to: '2023-06-30' },
      { from: '2022-06-01', to: '2022-06-30' },
    ]);
    // September has not begun in August 2023: the latest September is last year's.
    expect((await r('What happened in September?'))[0]).toEqual({ from: '2022-09-01', to: '2022-09-30' });
  });

  it('reads relative days from today', async () => {
    expect(await r('what did I eat yesterday')).toEqual([{ from: '2023-08-19', to: '2023-08-19' }]);
    expect(await r('who called last week?')).toEqual([{ from: '2023-08-10', to: '2023-08-16' }]);
    expect(await r('where did we travel last year')).toEqual([{ from: '2022-01-01', to: '2022-12-31' }]);
  });

  it('reads years and seasons, which the date parser leaves alone', async () => {
    expect(await r('How many times did I go to the beach in 2022?')).toEqual([{ from: '2022-01-01', to: '2022-12-31' }]);
    expect(await r('What state did she visit in summer 2021?')).toEqual([{ from: '2021-06-01', to: '2021-08-31' }]);
    // "last spring" in August: this year's spring has ended.
    expect(await r('what did we plant last spring')).toEqual([{ from: '2023-03-01', to: '2023-05-31' }]);
    // Winter runs into the next year.
    expect(await r('plans for winter 2022')).toEqual([{ from: '2022-12-01', to: '2023-02-28' }]);
  });

  it('finds no time where none is named, and never throws on odd text', async () => {
    expect(await r('What is my sister allergic to?')).toEqual([]);
    expect(await r('I may go to the party')).toEqual([]);
    expect(await r('meet at 5')).toEqual([]);
    for (const q of ['', '\u0000', '\ud800 june', '9999-99-99', 'in 20231', 'May'.repeat(5000)]) await expect(r(q)).resolves.toBeInstanceOf(Array);
  });

  it('counts a memory written within a range or its slack, not before or after', async () => {
    const june = widen(await r('in June 2023'), 7);
    expect(inRanges('2023-06-15', june)).toBe(true);
    expect(inRanges('2023-07-05', june)).toBe(true); // "we went camping last week", written in early July
    expect(inRanges('2023-07-08', june)).toBe(false);
    expect(inRanges('2023-05-31', june)).toBe(false);
  });
});
