/**
 * Cutting long text for the model: keep the head and the tail (where errors and summaries live),
 * cut at line boundaries, and say exactly what was left out so the model can ask for it.
 */

export function headTail(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let headEnd = text.lastIndexOf('\n', headBudget);
  if (headEnd < headBudget / 2)
    headEnd = headBudget; // one huge line: cut inside it
  else headEnd += 1;
  let tailStart = text.indexOf('\n', text.length - tailBudget);
  if (tailStart === -1 || tailStart - (text.length - tailBudget) > tailBudget / 2) tailStart = text.length - tailBudget;
  else tailStart += 1;
  const omitted = text.slice(headEnd, tailStart);
  const lines = countLines(omitted);
  const marker = `\n[... ${omitted.length} characters (${lines} lines) omitted ...]\n`;
  return { text: text.slice(0, headEnd) + marker + text.slice(tailStart), truncated: true };
}

function countLines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** Tool arguments on one line for logs and memory notes: `name=value` pairs, long strings and the whole cut. */
export function briefArgs(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v.length > 80 ? v.slice(0, 77) + '...' : v) : JSON.stringify(v)}`)
    .join(' ');
  return text.length > 200 ? text.slice(0, 197) + '...' : text;
}
