import { formatPatch, type StructuredPatch } from 'diff';
import { diffHunks } from './lineDiff';
import { reverseHunks, type EditScript } from './editScript';

/** One file's change as applied: text before and after (null = did not exist on that side). */
export interface FileChange {
  oldPath: string | null;
  newPath: string | null;
  oldText: string | null;
  newText: string | null;
  /** Git mode of the file ('100644' or '100755'); defaults to 100644. */
  mode?: string;
  /** The applier's own record of this change, when it covers exactly oldText -> newText. */
  script?: EditScript;
}

/**
 * A git-style unified diff that takes the files from their new state back to the old one. It is
 * computed from the exact texts (CR bytes, BOM and final-newline markers included), so
 * `git apply` of it restores the original bytes.
 */
/** jsdiff's structure with our fast hunks; jsdiff formats it (git headers, quoting, markers). */
function structuredPatch(oldName: string, newName: string, oldStr: string, newStr: string): StructuredPatch {
  return { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: diffHunks(oldStr, newStr) };
}

export function buildReversePatch(changes: readonly FileChange[]): string {
  const parts: string[] = [];
  for (const c of changes) {
    const mode = c.mode ?? '100644';
    if (c.oldText === c.newText && c.oldPath === c.newPath) continue;
    if (c.newText === null && c.oldText !== null && c.oldPath) {
      // Deleted: the reverse creates it again.
      const sp = structuredPatch(`a/${c.oldPath}`, `b/${c.oldPath}`, '', c.oldText);
      parts.push(formatPatch({ ...sp, oldFileName: '/dev/null', newFileName: `b/${c.oldPath}`, isGit: true, isCreate: true, newMode: mode }));
    } else if (c.oldText === null && c.newText !== null && c.newPath) {
      // Created: the reverse deletes it.
      const sp = structuredPatch(`a/${c.newPath}`, `b/${c.newPath}`, c.newText, '');
      parts.push(formatPatch({ ...sp, oldFileName: `a/${c.newPath}`, newFileName: '/dev/null', isGit: true, isDelete: true, oldMode: mode }));
    } else if (c.oldText !== null && c.newText !== null && c.oldPath && c.newPath) {
      // A BOM with no lines after it is one line to a diff but none to the script: diff that case.
      const scriptFits = c.script && !(c.script.bom && (c.script.oldLines.length === 0 || c.script.newLines.length === 0));
      const sp =
        scriptFits && c.script
          ? { oldFileName: `a/${c.newPath}`, newFileName: `b/${c.oldPath}`, oldHeader: undefined, newHeader: undefined, hunks: reverseHunks(c.script) }
          : structuredPatch(`a/${c.newPath}`, `b/${c.oldPath}`, c.newText, c.oldText);
      parts.push(formatPatch({ ...sp, isGit: true, isRename: c.oldPath !== c.newPath }));
    }
  }
  return parts.join('');
}
