/**
 * Splits streamed `content` into text and reasoning when a server without a reasoning parser sends
 * Qwen3 / DeepSeek-R1 thinking inline as `<think>…</think>`. Stream-safe: a tag may be split across
 * chunks, so a tail that could still become a tag is held back until the next piece (or the end).
 *
 * Two shapes occur: `<think>reasoning</think>answer`, and `reasoning</think>answer` when the chat
 * template already put the opening tag into the prompt (DeepSeek-R1's template, Qwen3 thinking on
 * llama.cpp). The second can only be recognised at the closing tag: everything streamed as text
 * before it is then reasoning after all (`kind: 'retract'`), the consumer moves it.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export type ThinkPiece = { kind: 'text' | 'reasoning'; text: string } | { kind: 'retract'; text: string };

export class ThinkTagSplitter {
  private mode: 'start' | 'think' | 'text' = 'start';
  private pending = '';
  /** A tag was seen: the reply's one think block is over or open, so later tags are just text. */
  private tagSeen = false;
  /** Right after `</think>`: the blank lines templates put before the answer are not part of it. */
  private trimLead = false;

  push(piece: string): ThinkPiece[] {
    const out: ThinkPiece[] = [];
    let buf = this.pending + piece;
    this.pending = '';
    for (;;) {
      if (this.mode === 'start') {
        const lead = buf.trimStart();
        if (lead.length < OPEN.length && OPEN.startsWith(lead)) {
          this.pending = buf; // "", "<", "<thi": wait for more
          return out;
        }
        if (lead.startsWith(OPEN)) {
          this.mode = 'think';
          this.tagSeen = true;
          buf = lead.slice(OPEN.length);
          continue;
        }
        this.mode = 'text';
        continue;
      }
      if (this.mode === 'think') {
        const end = buf.indexOf(CLOSE);
        if (end >= 0) {
          push(out, 'reasoning', buf.slice(0, end));
          this.mode = 'text';
          this.trimLead = true;
          buf = buf.slice(end + CLOSE.length);
          continue;
        }
        const keep = heldTail(buf, CLOSE);
        push(out, 'reasoning', buf.slice(0, buf.length - keep));
        this.pending = buf.slice(buf.length - keep);
        return out;
      }
      // text
      if (this.trimLead) {
        buf = buf.replace(/^\s+/, '');
        if (!buf) return out;
        this.trimLead = false;
      }
      if (!this.tagSeen) {
        const end = buf.indexOf(CLOSE);
        if (end >= 0) {
          this.tagSeen = true;
          out.push({ kind: 'retract', text: buf.slice(0, end) });
          this.trimLead = true;
          buf = buf.slice(end + CLOSE.length);
          continue;
        }
        const keep = heldTail(buf, CLOSE);
        push(out, 'text', buf.slice(0, buf.length - keep));
        this.pending = buf.slice(buf.length - keep);
        return out;
      }
      push(out, 'text', buf);
      return out;
    }
  }

  /** The end of the reply: whatever was held back is released as what it was. */
  flush(): ThinkPiece[] {
    const rest = this.pending;
    this.pending = '';
    if (!rest) return [];
    return [{ kind: this.mode === 'think' ? 'reasoning' : 'text', text: rest }];
  }
}

function push(out: ThinkPiece[], kind: 'text' | 'reasoning', text: string): void {
  if (text) out.push({ kind, text });
}

/** Length of the longest tail of `buf` that is a proper prefix of `tag`. */
function heldTail(buf: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, buf.length); n > 0; n--) {
    if (tag.startsWith(buf.slice(buf.length - n))) return n;
  }
  return 0;
}
