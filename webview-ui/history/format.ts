/** Short human figures for the runs list and the timeline. Pure; the formatters are made once (each costs far more than a format). */

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'short' });
const NUMBER = new Intl.NumberFormat();

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

export function clock(t: number): string {
  return CLOCK.format(t);
}

export function dateTime(t: number): string {
  return DATE_TIME.format(t);
}

export function date(t: number): string {
  return DATE.format(t);
}

export function count(n: number): string {
  return NUMBER.format(n);
}

export function tokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : NUMBER.format(n);
}

export function cost(usd: number): string {
  return usd > 0 ? `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}` : '';
}

export function oneLine(s: string, max = 160): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${NUMBER.format(n)} ${n === 1 ? one : many}`;
}
