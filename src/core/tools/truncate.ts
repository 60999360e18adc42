/**
 * Cutting long text for the model: keep the head and the tail (where errors and summaries live),
 * cut at line boundaries, and say exactly what was left out so the model can ask for it.
 */

export function headTail(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let headEnd = text.lastIndexOf('\n', headBudget);
  if (headEnd < headBudget / 2) headEnd = headBudget; // one huge line: cut inside it
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

/**
 * Collects a stream's output keeping the first and the last bytes within a budget, so a test run
 * that prints 50 MB costs constant memory and still shows its failures (at the end) and its setup (at the start).
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.floor(maxChars / 2);
    this.tailMax = maxChars - this.headMax;
  }

  push(chunk: string): void {
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail += chunk;
    if (this.tail.length > this.tailMax * 2) this.trimTail();
  }

  get truncated(): boolean {
    return this.dropped > 0 || this.tail.length > this.tailMax;
  }

  toString(): string {
    this.trimTail();
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[... ${this.dropped} characters omitted ...]\n${this.tail}`;
  }

  private trimTail(): void {
    if (this.tail.length <= this.tailMax) return;
    const cut = this.tail.length - this.tailMax;
    this.dropped += cut;
    this.tail = this.tail.slice(cut);
  }
}
