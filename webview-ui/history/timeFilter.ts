/** The time filter's choices as [since, until) in ms, in the user's own time zone. Pure. */
import type { TimeRange } from '../../src/protocol/history';

export type TimeChoice = 'today' | '7d' | '30d' | 'all' | 'range';

export const TIME_CHOICES: ReadonlyArray<{ value: TimeChoice; label: string }> = [
  { value: 'all', label: 'All time' },
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'range', label: 'Date range…' },
];

const DAY = 86_400_000;

function localMidnight(t: number): number {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** `from` and `to` are input[type=date] values (YYYY-MM-DD), both days included. */
export function timeRange(choice: TimeChoice, now: number, from = '', to = ''): TimeRange {
  switch (choice) {
    case 'all':
      return {};
    case 'today':
      return { since: localMidnight(now) };
    case '7d':
      return { since: now - 7 * DAY };
    case '30d':
      return { since: now - 30 * DAY };
    case 'range': {
      const day = (s: string) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00`).getTime() : undefined);
      const since = day(from);
      const toDay = day(to);
      // The day after `to`, at local midnight (not +24 h: a daylight-saving day has 23 or 25).
      const until = toDay === undefined ? undefined : localMidnight(toDay + DAY + 3 * 3_600_000);
      return { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
    }
  }
}

const THIS_YEAR = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const OTHER_YEAR = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** "Today", "Yesterday", "Tuesday 10 March" (this year) or "Tuesday 10 March 2025". */
export function dayLabel(t: number, now: number): string {
  const day = localMidnight(t);
  const today = localMidnight(now);
  if (day === today) return 'Today';
  if (day === localMidnight(today - 12 * 3_600_000)) return 'Yesterday';
  return (new Date(t).getFullYear() === new Date(now).getFullYear() ? THIS_YEAR : OTHER_YEAR).format(t);
}

export function dayKey(t: number): number {
  return localMidnight(t);
}
