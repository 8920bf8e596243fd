// Time expressions in a recall query ("in May 2023", "last week", "yesterday",
// "in the spring", "2022") turned into day ranges, relative to the day recall
// runs on. Recall then gives memories written within a range a soft boost
// (docs/ranking.md, "Time in the question"): a question about June should
// prefer what was written in June, but a strong match from another month
// still counts. chrono-node reads dates in English prose; seasons and bare
// years, which it leaves alone, are read here.
import type * as chrono from 'chrono-node';

// Loaded at the first recall, not at start: reading its locale tables costs a start ~0.3 s (docs/startup.md).
let chronoModule: Promise<typeof chrono> | null = null;
const loadChrono = () => (chronoModule ??= import('chrono-node'));

/** Inclusive, as YYYY-MM-DD (the `day` column's form, which compares as text). */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const MAX_TIME_CHARS = 1_000;

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function utcDay(y: number, m: number, d: number): Date {
  return new Date(Date.UTC(y, m, d));
}

function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * DAY_MS);
}

function monthRange(y: number, m: number): DayRange {
  return { from: iso(utcDay(y, m, 1)), to: iso(utcDay(y, m + 1, 0)) };
}

/** Northern-hemisphere seasons as month spans: [first month, months]. */
const SEASONS: Record<string, [number, number]> = { spring: [2, 3], summer: [5, 3], autumn: [8, 3], fall: [8, 3], winter: [11, 3] };
const SEASON_RE = /\b(?:(last|this|previous|past)\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d\d))?\b/gi;
const YEAR_RE = /\b(?:in|of|during|since|from|year)\s+((?:19|20)\d\d)\b/gi;

/** A season's span in a year; winter runs into the next year. */
function seasonIn(year: number, season: string): DayRange {
  const [m, n] = SEASONS[season]!;
  return { from: iso(utcDay(year, m, 1)), to: iso(utcDay(year, m + n, 0)) };
}

/**
 * The seasons a query names: with a year, that one; "last summer", the latest
 * that has ended; otherwise the latest that has begun and the one before it
 * (a question about "the summer" in January means last year's).
 */
function seasons(text: string, today: Date): DayRange[] {
  const out: DayRange[] = [];
  for (const m of text.matchAll(SEASON_RE)) {
    const season = m[2]!.toLowerCase();
    const y = today.getUTCFullYear();
    if (m[3]) {
      out.push(seasonIn(Number(m[3]), season));
      continue;
    }
    const begun = [y + 1, y, y - 1, y - 2].map((yr) => seasonIn(yr, season)).filter((r) => r.from <= iso(today));
    const ended = begun.filter((r) => r.to < iso(today));
    if (m[1] && m[1].toLowerCase() !== 'this') out.push(...ended.slice(0, 1));
    else out.push(...begun.slice(0, 2));
  }
  return out;
}

function years(text: string): DayRange[] {
  return [...text.matchAll(YEAR_RE)].map((m) => ({ from: `${m[1]}-01-01`, to: `${m[1]}-12-31` }));
}

/** One chrono result as a range, as wide as what it pins down. */
function fromChrono(r: chrono.ParsedResult, today: Date): DayRange[] {
  const s = r.start;
  const at = s.date();
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  if (r.end) return [{ from: iso(s.date()), to: iso(r.end.date()) }];
  if (s.isCertain('day')) {
    // "last week", "two weeks before …": chrono pins a day; the person means about that week.
    const d = utcDay(y, m, at.getUTCDate());
    return /week/i.test(r.text) ? [{ from: iso(addDays(d, -3)), to: iso(addDays(d, 3)) }] : [{ from: iso(d), to: iso(d) }];
  }
  if (s.isCertain('month')) {
    if (s.isCertain('year')) return [monthRange(y, m)];
    // "in June" without a year: the latest June that has begun, and the one before.
    const latest = utcDay(today.getUTCFullYear(), m, 1) <= today ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
    return [monthRange(latest, m), monthRange(latest - 1, m)];
  }
  if (s.isCertain('year')) return [{ from: `${y}-01-01`, to: `${y}-12-31` }];
  // A weekday alone ("on Monday", "last weekend"): within the past week.
  if (s.isCertain('weekday')) return [{ from: iso(addDays(today, -7)), to: iso(today) }];
  // A time of day alone ("at 5") says nothing about the day.
  return [];
}

/**
 * The day ranges a query names, relative to `today` (recall's clock, or its
 * `date`). Empty when it names none. Never throws: any text is a query.
 */
export async function timeRanges(text: string, today: Date): Promise<DayRange[]> {
  // A time is named in a question, not deep inside a pasted page: the cap keeps parsing cheap.
  const query = text.slice(0, MAX_TIME_CHARS);
  let parsed: chrono.ParsedResult[] = [];
  try {
    parsed = (await loadChrono()).parse(query, { instant: today, timezone: 0 }, { forwardDate: false });
  } catch {
    // A parser bug must not cost the person their search: ranking goes on without time.
  }
  const ranges = [...parsed.flatMap((r) => fromChrono(r, today)), ...seasons(query, today), ...years(query)];
  const seen = new Set<string>();
  return ranges.filter((r) => r.from <= r.to && !seen.has(`${r.from}/${r.to}`) && seen.add(`${r.from}/${r.to}`));
}

/**
 * Memories are written after what they tell ("we went camping last week"):
 * each range also covers the `slackDays` after its end.
 */
export function widen(ranges: readonly DayRange[], slackDays: number): DayRange[] {
  return ranges.map((r) => ({ from: r.from, to: slackDays > 0 ? iso(addDays(new Date(`${r.to}T00:00:00Z`), slackDays)) : r.to }));
}

export function inRanges(day: string, ranges: readonly DayRange[]): boolean {
  return ranges.some((r) => day >= r.from && day <= r.to);
}
