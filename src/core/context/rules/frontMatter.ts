/**
 * The front matter of a rules file (`.cursor/rules/*.mdc`, `.github/instructions/*.instructions.md`):
 * YAML between `---` lines, then the body. Cursor writes its keys unquoted (`globs: *.ts`), which
 * strict YAML reads as an alias and refuses; so when YAML fails, lines of plain `key: value` are
 * read as strings. Anything else is malformed: the caller skips the file with a warning naming the
 * problem (its scope is unknown, and loading it everywhere could steer files it was never meant for).
 */
import { lazyChunk } from '../../base/lazyChunks';
import { plainText } from '../../base';

export type FrontMatter = { ok: true; meta: Record<string, unknown>; body: string; hasFrontMatter: boolean } | { ok: false; problem: string };

const BLOCK = /^---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/;

export function splitFrontMatter(text: string): FrontMatter {
  const normalized = plainText(text);
  if (!/^---[ \t]*\n/.test(normalized)) return { ok: true, meta: {}, body: normalized, hasFrontMatter: false };
  const match = BLOCK.exec(normalized);
  if (!match) return { ok: false, problem: 'the front matter opened with "---" is never closed by a "---" line' };
  const body = normalized.slice(match[0].length);
  const raw = match[1]!;
  if (!raw.trim()) return { ok: true, meta: {}, body, hasFrontMatter: true };
  let meta: unknown;
  try {
    meta = lazyChunk.yaml().parse(raw);
  } catch (err) {
    const lenient = plainKeyValues(raw);
    if (!lenient) return { ok: false, problem: `the front matter is not valid YAML: ${firstLine((err as Error).message)}` };
    meta = lenient;
  }
  if (meta === null || meta === undefined) return { ok: true, meta: {}, body, hasFrontMatter: true };
  if (typeof meta !== 'object' || Array.isArray(meta)) return { ok: false, problem: 'the front matter must be a YAML mapping (key: value lines)' };
  return { ok: true, meta: meta as Record<string, unknown>, body, hasFrontMatter: true };
}

/** `key: value` lines (Cursor's unquoted globs); undefined when a line is anything else. */
function plainKeyValues(raw: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of raw.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const m = /^([A-Za-z][\w-]*):[ \t]*(.*)$/.exec(line);
    if (!m) return undefined;
    out[m[1]!] = m[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

/**
 * Globs as the formats write them: a list, or one string of comma-separated globs
 * (`"src/**\/*.ts, *.tsx"`). Braces keep their commas (`*.{ts,tsx}`). Undefined when the value is of
 * another type (a problem to report).
 */
export function globList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? value.map((v: string) => v.trim()).filter(Boolean) : undefined;
  if (typeof value !== 'string') return undefined;
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    if (ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((g) => g.trim().replace(/^(["'])(.*)\1$/, '$2')).filter(Boolean);
}

/** `true` / `"true"` (the lenient reading gives strings). */
export function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
