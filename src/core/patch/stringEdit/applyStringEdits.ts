/**
 * Exact string replacement on a file's text, as the edit tools models are trained on do it: each
 * old_string must occur exactly once (or replace_all), several edits apply in order, each to the
 * text the ones before it left. Matching is done on LF text: a model writes "\n" whatever the file
 * holds, and the patch engine gives the written lines the file's own endings.
 */
import { nearestCandidates } from './nearestLines';
import type { StringEdit, StringEditResult } from './types';

const MAX_LISTED_MATCHES = 10;

export function applyStringEdits(fileText: string, edits: readonly StringEdit[]): StringEditResult {
  const before = toLf(fileText);
  let text = before;
  let replacements = 0;
  for (const [i, raw] of edits.entries()) {
    const label = edits.length > 1 ? `edits[${i}]` : 'the edit';
    const edit = { ...raw, oldString: toLf(raw.oldString), newString: toLf(raw.newString) };
    const refused = checkEdit(edit, label);
    if (refused) return { ok: false, message: refused };
    const found = occurrences(text, edit.oldString);
    const where = i > 0 ? ' (in the file as the earlier edits of this call left it)' : '';
    if (found.length === 0) return { ok: false, message: notFound(text, edit.oldString, label, where) };
    if (found.length > 1 && !edit.replaceAll) return { ok: false, message: ambiguous(text, found, label, where) };
    text = edit.replaceAll ? text.split(edit.oldString).join(edit.newString) : replaceAt(text, found[0]!, edit);
    replacements += edit.replaceAll ? found.length : 1;
  }
  if (text === before) return { ok: false, message: 'the edits leave the file exactly as it is; nothing to change' };
  return { ok: true, before, after: text, replacements };
}

function checkEdit(edit: StringEdit, label: string): string | undefined {
  if (edit.oldString === '') return `${label}: old_string is empty; to create a file use write_file, to add lines include the lines around them in old_string`;
  if (edit.oldString === edit.newString) return `${label}: old_string and new_string are the same; nothing to change`;
  return undefined;
}

/** Start offsets of every non-overlapping occurrence, as split/join replaces them. */
function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function replaceAt(text: string, at: number, edit: StringEdit): string {
  return text.slice(0, at) + edit.newString + text.slice(at + edit.oldString.length);
}

function notFound(text: string, oldString: string, label: string, where: string): string {
  const near = nearestCandidates(text.split('\n'), oldString.split('\n'));
  const hint = 'Copy old_string exactly from the file (indentation and whitespace included, without read_file line numbers).';
  return `${label}: old_string was not found in the file${where}. ${hint}${near ? `\n${near}` : ''}`;
}

function ambiguous(text: string, found: number[], label: string, where: string): string {
  const lines = text.split('\n');
  const listed = found.slice(0, MAX_LISTED_MATCHES).map((at) => {
    const line = lineOf(text, at);
    return `  ${line} | ${lines[line - 1]}`;
  });
  const more = found.length > MAX_LISTED_MATCHES ? `\n  (... ${found.length - MAX_LISTED_MATCHES} more)` : '';
  return (
    `${label}: old_string occurs ${found.length} times in the file${where}; it must occur once. ` +
    `Add surrounding lines to old_string to pick one, or set replace_all to change every occurrence.\n` +
    `occurrences (line | text):\n${listed.join('\n')}${more}`
  );
}

/** 1-based line number of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function toLf(s: string): string {
  return s.replace(/\r\n/g, '\n');
}
