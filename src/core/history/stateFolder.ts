/**
 * The agent's state folder (`.patchpilot/` by default) is only ever reached through real folders.
 * A command the agent ran could replace it with a link to a folder outside the workspace before the
 * first save (attacks.state): the history database, its lock and backup would then be written out there. So the
 * folder chain from the workspace root down to the database folder is created here one real folder
 * at a time (never `mkdir -p` through a link) and checked with lstat again before every save.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../base/errors';

/** The lstat/mkdir calls this needs; the store passes its own (injectable) file layer. */
export type FolderFs = Pick<typeof fs, 'lstatSync' | 'mkdirSync'>;

/**
 * Makes sure every folder from `root` (exclusive) down to `dir` (inclusive) is a real directory,
 * creating missing ones one by one (with `create: false`, a missing one ends the check: nothing
 * below it can be a link). Throws a UserError naming the first link or non-folder on the way.
 * `dir` must be inside `root`; `root` itself is the workspace the user chose.
 */
export function ensureRealFolderChain(root: string, dir: string, fsx: FolderFs = fs, options: { create?: boolean } = {}): void {
  const rel = path.relative(root, dir);
  if (rel === '') return;
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new UserError(`the state folder ${dir} is outside the workspace ${root}`, 'state-folder-outside');
  }
  let current = root;
  for (const part of rel.split(path.sep)) {
    current = path.join(current, part);
    let st: fs.Stats | undefined;
    try {
      st = fsx.lstatSync(current);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (!st) {
      if (options.create === false) return;
      try {
        fsx.mkdirSync(current, { mode: 0o755 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      st = fsx.lstatSync(current); // created now, or by a racing creator: check what is there
    }
    if (st.isSymbolicLink()) {
      throw new UserError(
        `${current} is a symbolic link; PatchPilot never writes its state through a link (it could point outside the workspace). Remove the link and run again.`,
        'state-folder-link',
      );
    }
    if (!st.isDirectory()) throw new UserError(`${current} is not a folder; PatchPilot keeps its state there`, 'state-folder-not-dir');
  }
}

/** The workspace root that contains `file`, if the file lies inside it (else undefined: the user chose an outside path). */
export function confiningRoot(workspace: string, file: string): string | undefined {
  const root = path.resolve(workspace);
  const rel = path.relative(root, path.resolve(file));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? root : undefined;
}

type IgnoreFs = Pick<typeof fs, 'readFileSync' | 'writeFileSync' | 'openSync' | 'writeSync' | 'closeSync'>;

/**
 * Keeps one of PatchPilot's own files out of git: adds `pattern` to the `.patchpilot/.gitignore`
 * (created ignoring itself too) unless a line says it already. Only in a folder named `.patchpilot`;
 * best effort (a read-only folder is reported by the write that follows). Never follows a link:
 * creation is exclusive and appending opens with O_NOFOLLOW.
 */
export function ignoreInStateFolder(dir: string, pattern: string, fsx: IgnoreFs = fs): void {
  if (path.basename(dir) !== '.patchpilot') return;
  const file = path.join(dir, '.gitignore');
  for (let attempt = 0; attempt < 2; attempt++) {
    let text: string;
    try {
      text = fsx.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
      try {
        fsx.writeFileSync(file, `${pattern}\n.gitignore\n`, { flag: 'wx' });
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue; // created meanwhile: append to it
        return;
      }
    }
    if (text.split(/\r?\n/).some((line) => line.trim() === pattern)) return;
    try {
      const fd = fsx.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW);
      try {
        fsx.writeSync(fd, `${text === '' || text.endsWith('\n') ? '' : '\n'}${pattern}\n`);
      } finally {
        fsx.closeSync(fd);
      }
    } catch {
      /* a link, or not writable: leave it */
    }
    return;
  }
}
