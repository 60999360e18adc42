/**
 * (attacks.guard) the sandbox masks ignored files, but their bytes may still come out another way
 * (git's objects of a tracked `.env`: `git show`, `git log -p`, `git diff` against the masked file;
 * or no sandbox at all). Before a command's output reaches the model, every line of an ignored file
 * (and every value of a KEY=VALUE line) is replaced by a marker naming the file. Lines too short
 * or too common to be secrets are left alone, so output stays readable.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

const MAX_FILE_BYTES = 256 * 1024;
const MAX_NEEDLES = 5000;
const MIN_NEEDLE = 8;

export class SecretRedactor {
  private constructor(private readonly needles: { text: string; from: string }[]) {}

  static empty(): SecretRedactor {
    return new SecretRedactor([]);
  }

  /** Reads the given workspace files (ignored ones and their hard links); folders and large files are skipped. */
  static async fromFiles(root: string, entries: readonly { rel: string; type: string; size: number }[]): Promise<SecretRedactor> {
    const needles = new Map<string, string>();
    for (const e of entries) {
      if (e.type !== 'file' || e.size > MAX_FILE_BYTES || needles.size >= MAX_NEEDLES) continue;
      let text: string;
      try {
        text = await fs.readFile(path.join(root, e.rel), 'utf8');
      } catch {
        continue;
      }
      for (const needle of secretPieces(text)) if (!needles.has(needle)) needles.set(needle, e.rel);
    }
    // Longest first, so a whole line is replaced before the value inside it.
    return new SecretRedactor(
      [...needles]
        .map(([text, from]) => ({ text, from }))
        .sort((a, b) => b.text.length - a.text.length)
        .slice(0, MAX_NEEDLES),
    );
  }

  get size(): number {
    return this.needles.length;
  }

  redact(output: string): { text: string; count: number } {
    let text = output;
    let count = 0;
    for (const { text: needle, from } of this.needles) {
      if (!text.includes(needle)) continue;
      const parts = text.split(needle);
      count += parts.length - 1;
      text = parts.join(`[redacted: content of ${from}, which .patchpilotignore hides]`);
    }
    return { text, count };
  }
}

/** Whole lines and KEY=VALUE / key: value values, trimmed, long enough not to match ordinary text. */
function secretPieces(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length < MIN_NEEDLE || line.startsWith('#')) continue;
    out.push(line);
    const m = /^(?:export\s+)?[\w.-]+\s*[:=]\s*(.+)$/.exec(line);
    const value = m?.[1]?.trim().replace(/^(['"])(.*)\1$/, '$2');
    if (value && value.length >= MIN_NEEDLE) out.push(value);
  }
  return out;
}
