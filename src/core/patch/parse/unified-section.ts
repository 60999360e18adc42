import type { FilePatch, Hunk, HunkLine } from '../types';
import { fail } from './errors';
import { at } from './lines';
import { normalisePath, stripGitPrefix } from './paths';

/**
 * What the headers of one unified-diff file section said, and how that becomes a FilePatch:
 * which names win (rename/copy lines, then ---/+++, then `diff --git`), create/delete/rename,
 * binary, and the refusals that belong to the parser (copy without content, removals in a new file).
 */
export interface Section {
  /** 1-based line of `diff --git` or `---`. */
  patchLine: number;
  git: boolean;
  /** `diff --git x y` without `a/` `b/`: names are not prefixed (git diff --no-prefix). */
  noPrefix: boolean;
  gitNames?: { old: string; new: string };
  /** From `--- x` / `+++ y`: undefined when not seen, null for /dev/null. */
  minus?: string | null;
  plus?: string | null;
  newFileMode: boolean;
  deletedFileMode: boolean;
  modeChange: boolean;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  binary: boolean;
  /** Path taken from a path line or fence info because the hunk had no file header. */
  hinted: boolean;
  /** Index after the section's last header line, to quote what followed when no hunk came. */
  headerEnd: number;
  /** Set on close when no hunk came: the quoted first non-blank line after the headers. */
  foundAfterHeader?: string;
  hunks: Hunk[];
}

export function newSection(patchLine: number, git: boolean): Section {
  return {
    patchLine,
    git,
    noPrefix: false,
    newFileMode: false,
    deletedFileMode: false,
    modeChange: false,
    binary: false,
    hinted: false,
    hunks: [],
    headerEnd: patchLine,
  };
}

function prefixed(section: Section, name: string): string {
  return normalisePath(section.noPrefix ? name : stripGitPrefix(name));
}

function mergeIntoOne(hunks: Hunk[], patchLine: number): Hunk {
  const first = hunks[0];
  const merged: Hunk = { index: 0, anchors: [], lines: hunks.flatMap((h) => h.lines), patchLine: first?.patchLine ?? patchLine };
  const last = hunks[hunks.length - 1];
  if (last?.newNoNewlineAtEnd) merged.newNoNewlineAtEnd = true;
  if (last?.oldNoNewlineAtEnd) merged.oldNoNewlineAtEnd = true;
  return merged;
}

/**
 * A new file cannot have context or removed lines. A line without a prefix can only be an added
 * line that lost its `+`; a ` `-prefixed line the model meant as content. Removals are an error.
 */
function asWholeContent(hunks: Hunk[], side: 'add' | 'remove', label: string, warnings: string[]): void {
  const wrong: HunkLine['kind'] = side === 'add' ? 'remove' : 'add';
  for (const hunk of hunks) {
    let converted = 0;
    for (const line of hunk.lines) {
      if (line.kind === wrong) {
        const what = side === 'add' ? 'new file' : 'deleted file';
        fail(`${what} ${label} has a \`${wrong === 'remove' ? '-' : '+'}\` line in its hunk; a ${what}'s hunk may only ${side} lines`, hunk.patchLine);
      }
      if (line.kind === 'context') {
        line.kind = side;
        converted++;
      }
    }
    if (converted > 0) {
      warnings.push(
        at(
          hunk.patchLine,
          `${converted} context line(s) in the hunk of ${side === 'add' ? 'new' : 'deleted'} file ${label} read as ${side === 'add' ? 'added' : 'removed'} lines`,
        ),
      );
    }
  }
}

/** Which names a section's headers give, by precedence: rename/copy lines, then ---/+++, then `diff --git`. */
interface SectionNames {
  oldName: string | null | undefined;
  newName: string | null | undefined;
  label: string;
}

function sectionNames(section: Section): SectionNames {
  const fromHeader = (value: string | null | undefined, fallback: string | undefined): string | null | undefined =>
    value === undefined ? (fallback === undefined ? undefined : prefixed(section, fallback)) : value === null ? null : prefixed(section, value);
  const oldPath = section.renameFrom ?? section.copyFrom;
  const newPath = section.renameTo ?? section.copyTo;
  const oldName = oldPath !== undefined ? normalisePath(oldPath) : fromHeader(section.minus, section.gitNames?.old);
  const newName = newPath !== undefined ? normalisePath(newPath) : fromHeader(section.plus, section.gitNames?.new);
  return { oldName, newName, label: newName ?? oldName ?? '(unnamed)' };
}

/** The FilePatch of a finished section; undefined when the section changes nothing we apply. */
export function finishSection(section: Section, warnings: string[]): FilePatch | undefined {
  const names = sectionNames(section);
  const { oldName, newName } = names;
  const line = section.patchLine;
  const isCreate = section.minus === null || section.newFileMode;
  const isDelete = section.plus === null || section.deletedFileMode;
  if (oldName === undefined && newName === undefined) fail('file section without any file name', line);
  if (isCreate && isDelete) fail(`file section of ${names.label} both creates and deletes the file`, line);

  if (section.copyFrom !== undefined || section.copyTo !== undefined) return finishCopy(section, warnings);
  if (section.binary) {
    const operation = isCreate ? 'create' : isDelete ? 'delete' : oldName !== newName ? 'rename' : 'modify';
    return {
      operation,
      oldPath: isCreate ? null : (oldName ?? newName)!,
      newPath: isDelete ? null : (newName ?? oldName)!,
      hunks: [],
      binary: true,
      patchLine: line,
    };
  }
  if (isCreate) return finishCreate(section, newName, warnings);
  if (isDelete) return finishDelete(section, oldName, warnings);
  return finishChange(section, oldName ?? newName!, newName ?? oldName!, warnings);
}

/** A copy is read as creating the target with the hunk's added lines; anything else is refused. */
function finishCopy(section: Section, warnings: string[]): FilePatch {
  const line = section.patchLine;
  if (section.copyTo === undefined) fail(`\`copy from ${section.copyFrom}\` has no \`copy to\` line`, line);
  const target = normalisePath(section.copyTo);
  const source = section.copyFrom ?? '(unknown)';
  const changesFromSource = section.hunks.some((h) => h.lines.some((l) => l.kind !== 'add' || l.unprefixed));
  if (section.hunks.length === 0 || changesFromSource || section.binary) {
    fail(
      `copying ${source} to ${target} is not supported (PatchPilot does not read the source of a copy): ` +
        `send ${target} as a new file (\`--- /dev/null\`, \`+++ b/${target}\`) with its complete content`,
      line,
    );
  }
  warnings.push(at(line, `copy of ${source} to ${target} read as creating ${target} with the hunk's added lines`));
  return { operation: 'create', oldPath: null, newPath: target, patchLine: line, hunks: [mergeIntoOne(section.hunks, line)] };
}

function finishCreate(section: Section, newName: string | null | undefined, warnings: string[]): FilePatch {
  const line = section.patchLine;
  if (!newName) fail('new file has no name after `+++`', line);
  if (section.hunks.length === 0 && !section.newFileMode) {
    fail(
      `new file ${newName} has no content: expected an \`@@\` hunk of \`+\` lines after its header, found ${section.foundAfterHeader ?? 'the end of the text'}`,
      line,
    );
  }
  asWholeContent(section.hunks, 'add', newName, warnings);
  if (section.hunks.length > 1) warnings.push(at(line, `new file ${newName}: ${section.hunks.length} hunks joined into one`));
  return { patchLine: line, hunks: [mergeIntoOne(section.hunks, line)], operation: 'create', oldPath: null, newPath: newName };
}

function finishDelete(section: Section, oldName: string | null | undefined, warnings: string[]): FilePatch {
  const line = section.patchLine;
  const path = oldName ?? (section.gitNames ? prefixed(section, section.gitNames.old) : undefined);
  if (!path) fail('deleted file has no name after `---`', line);
  asWholeContent(section.hunks, 'remove', path, warnings);
  return { patchLine: line, hunks: section.hunks, operation: 'delete', oldPath: path, newPath: null };
}

/** A change in place or a rename; a section with only a mode change is ignored. */
function finishChange(section: Section, oldPath: string, newPath: string, warnings: string[]): FilePatch | undefined {
  const line = section.patchLine;
  const base = { patchLine: line, hunks: section.hunks } as const;
  if (oldPath !== newPath) {
    if (section.renameFrom === undefined) {
      warnings.push(at(line, `file header names two paths (${oldPath} -> ${newPath}) without rename lines; read as a rename`));
    }
    return { ...base, operation: 'rename', oldPath, newPath };
  }
  if (section.hunks.length === 0) {
    if (section.modeChange) {
      warnings.push(at(line, `mode change of ${oldPath} ignored (PatchPilot does not change file modes)`));
      return undefined;
    }
    fail(
      `file ${oldPath} has a header but no hunks: expected an \`@@\` line after its \`+++\` line, found ${section.foundAfterHeader ?? 'the end of the text'}`,
      line,
    );
  }
  if (section.modeChange) warnings.push(at(line, `mode change of ${oldPath} ignored (PatchPilot does not change file modes)`));
  return { ...base, operation: 'modify', oldPath, newPath };
}
