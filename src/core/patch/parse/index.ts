import type { ParsedPatch, PatchFormat, PatchParseError } from '../types';
import { err, ok, type Result } from '../../base/result';
import { errorMessage } from '../../base/errors';
import { parseApplyPatch } from './apply-patch';
import { firstApplyPatchMarker, firstSearchReplaceMarker, firstUnifiedMarker, mask } from './detect';
import { PatchSyntaxError } from './errors';
import { splitPatchText, type PatchLines } from './lines';
import { mergeSameFile } from './merge';
import type { FormatParse } from './result';
import { parseSearchReplace } from './search-replace';
import { parseUnified } from './unified';

const LOOKED_FOR =
  'looked for a unified diff (`--- a/path` and `+++ b/path` then `@@` hunks, or `diff --git a/path b/path`), ' +
  'an apply_patch envelope (`*** Begin Patch`, `*** Update File: path`, `*** Add File: path`, `*** Delete File: path`) ' +
  'and SEARCH/REPLACE blocks (the path on its own line, `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`)';

const FORMAT_NAMES: Record<PatchFormat, string> = {
  unified: 'unified diff',
  apply_patch: 'apply_patch envelope',
  search_replace: 'SEARCH/REPLACE blocks',
};

interface Candidate {
  format: PatchFormat;
  /** Index of the format's first marker line. */
  first: number;
  parsed?: FormatParse;
  error?: PatchSyntaxError;
}

function attempt(format: PatchFormat, first: number, run: () => FormatParse): Candidate {
  try {
    return { format, first, parsed: run() };
  } catch (e) {
    if (e instanceof PatchSyntaxError) return { format, first, error: e };
    throw e;
  }
}

function weight(parsed: FormatParse): number {
  return parsed.files.reduce((sum, f) => sum + Math.max(1, f.hunks.length), 0);
}

function toError(e: PatchSyntaxError): PatchParseError {
  return e.line === undefined ? { message: e.message } : { message: e.message, line: e.line };
}

function parseLines({ lines, cr }: PatchLines): Result<ParsedPatch, PatchParseError> {
  const candidates: Candidate[] = [];
  let rest: readonly string[] = lines;

  // SEARCH/REPLACE first: its blocks hold raw file text that could look like the other formats.
  const srFirst = firstSearchReplaceMarker(lines);
  if (srFirst >= 0) {
    const c = attempt('search_replace', srFirst, () => {
      const r = parseSearchReplace(lines, cr);
      rest = mask(lines, r.claimed);
      return r;
    });
    candidates.push(c);
  }
  const apFirst = firstApplyPatchMarker(rest);
  if (apFirst >= 0) {
    const before = rest;
    candidates.push(
      attempt('apply_patch', apFirst, () => {
        const r = parseApplyPatch(before, cr);
        rest = mask(before, r.claimed);
        return r;
      }),
    );
  }
  const udFirst = firstUnifiedMarker(rest);
  if (udFirst >= 0) {
    const before = rest;
    candidates.push(attempt('unified', udFirst, () => parseUnified(before, cr)));
  }

  if (candidates.length === 0) return err({ message: `no patch found: ${LOOKED_FOR}` });
  // SEARCH/REPLACE markers cannot be written by accident: when such blocks parse, a diff or
  // envelope elsewhere in the text is quoted prose (an earlier attempt, an explanation).
  const blocks = candidates.find((c) => c.format === 'search_replace' && c.parsed && c.parsed.files.length > 0);
  if (blocks) {
    const warnings = [...blocks.parsed!.warnings];
    for (const other of candidates.filter((c) => c !== blocks)) {
      warnings.push(`line ${other.first + 1}: ignored the ${FORMAT_NAMES[other.format]} outside the SEARCH/REPLACE blocks; send one format per patch`);
    }
    return ok({ format: 'search_replace', files: mergeSameFile(blocks.parsed!.files, warnings), warnings });
  }
  const failed = candidates.filter((c) => c.error).sort((a, b) => a.first - b.first);
  if (failed.length > 0) return err(toError(failed[0]!.error!));

  const usable = candidates.filter((c) => c.parsed && c.parsed.files.length > 0);
  if (usable.length === 0) {
    const notes = candidates.flatMap((c) => c.parsed?.warnings ?? []);
    const detail = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    return err({ message: `the ${FORMAT_NAMES[candidates[0]!.format]} changes no file${detail}`, line: candidates[0]!.first + 1 });
  }
  usable.sort((a, b) => weight(b.parsed!) - weight(a.parsed!) || a.first - b.first);
  const chosen = usable[0]!;
  const warnings = [...chosen.parsed!.warnings];
  for (const other of usable.slice(1)) {
    const names = other.parsed!.files.map((f) => f.newPath ?? f.oldPath).join(', ');
    warnings.push(
      `mixed patch formats: used the ${FORMAT_NAMES[chosen.format]} and ignored the ${FORMAT_NAMES[other.format]} ` +
        `starting at line ${other.first + 1} (${names}); send one format per patch`,
    );
  }
  const files = mergeSameFile(chosen.parsed!.files, warnings);
  return ok({ format: chosen.format, files, warnings });
}

/**
 * Detects the format (unified diff, apply_patch envelope, SEARCH/REPLACE), ignores prose and
 * ``` fences around and between the patch parts, and parses into the one hunk model
 * (see ../types.ts). Never throws: a text it cannot read gives `{ ok: false, error }` whose
 * message says what was expected, where, and what was found.
 */
export function parsePatch(text: string): Result<ParsedPatch, PatchParseError> {
  try {
    if (typeof text !== 'string') return err({ message: 'patch text must be a string' });
    if (text.trim() === '') return err({ message: `empty patch text: ${LOOKED_FOR}` });
    const split = splitPatchText(text);
    const parsed = parseLines(split);
    // The endings of such a text say little (see HunkLine.eol); the engine weighs them (planEndings).
    if (parsed.ok && split.crlfThroughout) for (const f of parsed.value.files) for (const h of f.hunks) h.crlfPatch = true;
    return parsed;
  } catch (e) {
    if (e instanceof PatchSyntaxError) return err(toError(e));
    const reason = errorMessage(e);
    return err({ message: `the patch parser failed unexpectedly (${reason}); please report this patch` });
  }
}
