/** Today as a local calendar day (YYYY-MM-DD), the same notion the core uses. */
export function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// Every date and time the app shows goes through these, in the person's own locale (the
// browser's or the OS's): one day format, one date-and-time format, one time-of-day format.
const DAY = new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** "Mon, Nov 30, 2026" for a YYYY-MM-DD day (read as a local date, not UTC). */
export function longDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return DAY.format(new Date(y, m - 1, d));
}

/** "Nov 30, 2026, 8:41 AM" for a moment; "—" for none. */
export function shortTime(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return DATE_TIME.format(d);
}

/** "8:41 AM" (the time of day alone), for a moment whose day is plain from its place. */
export function timeOfDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : TIME.format(d);
}

export { plural } from '../../shared/plural';

export function score(n: number | null): string {
  return n === null ? '—' : n.toFixed(3);
}
