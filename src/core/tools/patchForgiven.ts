/**
 * What the patch engine forgave, told to the model with the result: a model that is never told its
 * context line was wrong, or its hunk counts, keeps writing them that way. Each line the engine
 * matched loosely is quoted both ways (the patch's text and the file's actual line with its number),
 * and the parser's tolerances (a recounted header, unprefixed lines) are listed as it wrote them.
 */
import { parsePatch } from '../patch/parse';
import type { ApplyResult, FileResult, Hunk, HunkResult, MatchStrategy } from '../patch/types';

/** Strategies whose matched lines can be paired with the patch's old side, line by line. */
const PAIRED: ReadonlySet<MatchStrategy> = new Set(['trailing-whitespace', 'unicode', 'indentation', 'whitespace', 'context-trimmed']);
const MAX_PAIRS = 3;

export function describeForgiven(patch: string | undefined, result: ApplyResult): string {
  const parsed = patch ? parsePatch(patch) : undefined;
  const files = parsed?.ok ? parsed.value.files : [];
  const notes = result.files.flatMap((f) =>
    f.hunks
      .filter((h) => (h.status === 'applied' || h.status === 'would-apply') && (h.note || (h.strategy && PAIRED.has(h.strategy))))
      .map((h) => forgivenHunk(h, f, files.find((p) => (p.newPath ?? p.oldPath) === h.path)?.hunks[h.index])),
  );
  const tolerated = (result.warnings ?? []).map((w) => `  the patch text: ${w}`);
  const all = [...notes, ...tolerated];
  return all.length ? `\nforgiven (write these as the file has them next time):\n${all.join('\n')}` : '';
}

function forgivenHunk(h: HunkResult, file: FileResult, hunk: Hunk | undefined): string {
  const head = `  ${h.id} (${h.strategy ?? 'matched'})${h.note ? `: ${h.note}` : ''}`;
  if (!hunk || !h.range || !h.strategy || !PAIRED.has(h.strategy) || typeof file.oldText !== 'string') return head;
  const pairs = differingLines(hunk, file.oldText.replace(/\r\n/g, '\n').split('\n'), h.range.start, h.range.end);
  const shown = pairs.slice(0, MAX_PAIRS).map((p) => `    the patch has ${JSON.stringify(p.patch)}; line ${p.line} of the file is ${JSON.stringify(p.file)}`);
  const more = pairs.length > MAX_PAIRS ? [`    (${pairs.length - MAX_PAIRS} more line(s) differ the same way)`] : [];
  return [head, ...shown, ...more].join('\n');
}

/**
 * The hunk's old side against the file where it matched. Trimmed context lies just outside the
 * matched range: the old side is slid over the range to where most lines agree, and each line that
 * still differs is paired with the file line it stands for.
 */
function differingLines(hunk: Hunk, fileLines: readonly string[], start: number, end: number): { line: number; patch: string; file: string }[] {
  const old = hunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text);
  const matched = end - start + 1;
  if (old.length < matched) return [];
  let best = 0;
  let bestAgree = -1;
  for (let k = 0; k <= old.length - matched; k++) {
    let agree = 0;
    for (let i = 0; i < matched; i++) if (old[k + i] === fileLines[start - 1 + i]) agree++;
    if (agree > bestAgree) [best, bestAgree] = [k, agree];
  }
  const out: { line: number; patch: string; file: string }[] = [];
  old.forEach((text, j) => {
    const at = start - 1 + j - best;
    const actual = fileLines[at];
    if (actual !== undefined && actual !== text) out.push({ line: at + 1, patch: text, file: actual });
  });
  return out;
}
