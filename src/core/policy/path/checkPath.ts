/**
 * checkPath: may a tool touch this path? Every file tool is confined to the workspace. The
 * decision is made on the REAL location (symlinks, symlinked parents and `..` resolved like the
 * kernel does), and the real path is returned so the caller operates on what was checked.
 * Order: deny (outside, denyPaths, .patchpilotignore, special files) > ask (protected paths,
 * hard links) > allow. No approval mode changes a deny or skips a protected path's ask.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PolicyDecision } from '../types';
import { gitDirPartOf } from './bareRepo';
import { isCaseInsensitive } from './caseSensitivity';
import { createProtectedMatcher, foldForMatch, type ProtectedMatcher } from './protectedPaths';
import { PathLoopError, resolveRealPath } from './realPath';
import { DEFAULT_PATH_SETTINGS, type PathPolicySettings } from './settings';
import ignore from 'ignore';
import { errorMessage } from '../../base';

export type PathOperation = 'read' | 'write' | 'create' | 'delete' | 'list' | 'search';

export interface PathCheckRequest {
  workspaceRoot: string;
  /** As the model gave it: relative to the workspace root, or absolute. */
  path: string;
  operation: PathOperation;
  settings?: PathPolicySettings;
  /** `.patchpilotignore` predicate (createIgnoreFilter(root).isIgnored); relative POSIX paths are passed. */
  isIgnored?: (relPath: string, isDirectory?: boolean) => boolean;
  /** For a file with several hard links: the ignored or credential file sharing its inode, if any (attacks.guard). */
  secretInode?: (dev: number, ino: number) => Promise<string | undefined>;
}

export interface PathDecision extends PolicyDecision {
  /** The real absolute path to operate on; set whenever the input could be resolved. */
  realPath?: string;
  /** POSIX path relative to the real workspace root, for paths inside it. */
  relativePath?: string;
  exists: boolean;
}

const CHANGES = new Set<PathOperation>(['write', 'create', 'delete']);
/** A delete of a directory walks it to find protected entries; past this many it just asks. */
const MAX_DELETE_SCAN = 5000;

function no(verdict: 'deny' | 'ask', rule: string, reason: string, extra: Partial<PathDecision> = {}): PathDecision {
  return { verdict, rule, reason, exists: false, ...extra };
}

export async function checkPath(req: PathCheckRequest): Promise<PathDecision> {
  const settings = req.settings ?? DEFAULT_PATH_SETTINGS;
  if (typeof req.path !== 'string' || req.path.trim() === '' || req.path.includes('\0')) {
    return no('deny', 'deny:invalid-path', 'The path is empty or contains a NUL byte.');
  }
  if (/^~/.test(req.path)) {
    return no('deny', 'deny:outside-workspace', `"${req.path}" is a home-directory path; file tools only work inside the workspace.`);
  }
  let realRoot: string;
  try {
    realRoot = await fs.realpath(req.workspaceRoot);
  } catch {
    return no('deny', 'deny:no-workspace', `The workspace root "${req.workspaceRoot}" does not exist.`);
  }
  const folds = await isCaseInsensitive(realRoot);
  const lexical = path.resolve(req.workspaceRoot, req.path);

  let info: Resolved;
  try {
    // Resolve from the given root spelling so an absolute path under a symlinked root still maps inside.
    info = await resolveRealPath(lexical);
  } catch (e) {
    if (e instanceof PathLoopError) return no('deny', 'deny:symlink-loop', e.message);
    return no('deny', 'deny:unresolvable', `Could not resolve "${req.path}": ${errorMessage(e)}`);
  }
  const rel = relativeInside(realRoot, info.real, folds);
  const base = { realPath: info.real, exists: info.exists };
  if (rel === undefined) {
    const viaLink = info.symlinks.length > 0;
    return no(
      'deny',
      viaLink ? 'deny:symlink-escape' : 'deny:outside-workspace',
      viaLink
        ? `"${req.path}" goes through a symlink (${info.symlinks[0]}) to ${info.real}, outside the workspace.`
        : `"${req.path}" resolves to ${info.real}, outside the workspace; file tools only work inside it.`,
      base,
    );
  }
  const withRel = { ...base, relativePath: rel };
  // Judge both spellings: the one asked for and the real one (a link inside the workspace to .env).
  const lexRel = relativeInside(path.resolve(req.workspaceRoot), lexical, folds) ?? relativeInside(realRoot, lexical, folds);
  const candidates = [...new Set([rel, ...(lexRel !== undefined ? [lexRel] : [])])].filter((c) => c !== '');

  if (rel === '' && req.operation === 'delete') return no('deny', 'deny:workspace-root', 'The workspace root itself cannot be deleted.', withRel);
  const target: Target = { info, rel, candidates, isDir: info.stat?.isDirectory() ?? false, withRel };
  const refusal =
    (await refusedAlways(req, settings, target)) ?? (CHANGES.has(req.operation) ? await changeNeedsApproval(req, settings, realRoot, target) : undefined);
  if (refusal) return refusal;
  return { verdict: 'allow', rule: `allow:workspace-${req.operation}`, reason: `"${rel || '.'}" is inside the workspace.`, ...withRel };
}

type Resolved = Awaited<ReturnType<typeof resolveRealPath>>;

/** A path inside the workspace, resolved: what the checks below judge it by. */
interface Target {
  info: Resolved;
  /** The real path relative to the real workspace root. */
  rel: string;
  /** Both spellings (asked-for and real), relative, without the root itself. */
  candidates: string[];
  isDir: boolean;
  withRel: { realPath: string; exists: boolean; relativePath: string };
}

/** Denied whatever the operation's approval: denyPaths, .patchpilotignore, special files, hard links to hidden files, writing a directory. */
async function refusedAlways(req: PathCheckRequest, settings: PathPolicySettings, t: Target): Promise<PathDecision | undefined> {
  const { info, rel, isDir, withRel } = t;
  const denyGlobs = compileGlobs(settings.denyPaths);
  for (const c of t.candidates) {
    if (denyGlobs?.ignores(foldForMatch(c)) || (isDir && denyGlobs?.ignores(`${foldForMatch(c)}/`))) {
      return no('deny', 'deny:denyPaths', `"${c}" matches patchpilot.policy.denyPaths.`, withRel);
    }
    if (req.isIgnored?.(c, isDir)) {
      return no('deny', 'deny:patchpilotignore', `"${c}" is listed in .patchpilotignore; the agent cannot ${req.operation} it.`, withRel);
    }
  }
  if (info.stat && !info.stat.isFile() && !info.stat.isDirectory() && req.operation !== 'delete') {
    return no('deny', 'deny:special-file', `"${rel}" is not a regular file or directory (a FIFO, socket or device).`, withRel);
  }
  if (info.stat?.isFile() && info.stat.nlink > 1 && req.secretInode) {
    // Another name of an ignored file (or of ~/.aws/credentials) is the same bytes: as hidden as the original.
    const twin = await req.secretInode(info.stat.dev, info.stat.ino);
    if (twin !== undefined) {
      return no('deny', 'deny:hard-link-to-ignored', `"${rel}" is a hard link to ${twin}, which the agent may not ${req.operation}.`, withRel);
    }
  }
  if ((req.operation === 'write' || req.operation === 'create') && isDir) {
    return no('deny', 'deny:is-directory', `"${rel}" is a directory.`, withRel);
  }
  return undefined;
}

/** A change (write, create, delete) that needs approval: protected paths, git directories, protected entries inside, hard links. */
async function changeNeedsApproval(req: PathCheckRequest, settings: PathPolicySettings, realRoot: string, t: Target): Promise<PathDecision | undefined> {
  const { info, rel, isDir, withRel } = t;
  const matcher = createProtectedMatcher(settings.protectedPaths);
  for (const c of t.candidates) {
    const hit = matcher.match(c, isDir);
    if (hit) return no('ask', `protected:${hit.glob}`, `"${c}" is a protected path (${hit.why}); changing it needs your approval.`, withRel);
  }
  // Judged on the real path only: that is the file written, and its folders are what git would open.
  const gitDir = gitDirPartOf(realRoot, rel);
  if (gitDir !== undefined) {
    return no(
      'ask',
      'protected:git-directory',
      `"${rel}" is part of a git directory layout in "${gitDir || '.'}" (HEAD with objects/ and refs/, or commondir): git run there reads its config and hooks, which run commands; changing it needs your approval.`,
      withRel,
    );
  }
  if (req.operation === 'delete' && isDir) {
    const inner = await findProtectedInside(info.real, rel, matcher, req.isIgnored);
    if (inner) return no('ask', inner.rule, inner.reason, withRel);
  }
  if (req.operation !== 'delete' && info.stat?.isFile() && info.stat.nlink > 1) {
    return no(
      'ask',
      'ask:hard-link',
      `"${rel}" has ${info.stat.nlink} hard links; another name (possibly outside the workspace) shares its content and would change too.`,
      withRel,
    );
  }
  return undefined;
}

/** POSIX relative path if `target` is the root or inside it, else undefined. */
function relativeInside(root: string, target: string, foldCase: boolean): string | undefined {
  const a = foldCase ? root.toLowerCase() : root;
  const b = foldCase ? target.toLowerCase() : target;
  if (b === a) return '';
  const prefix = a.endsWith(path.sep) ? a : a + path.sep;
  if (!b.startsWith(prefix)) return undefined;
  return target.slice(prefix.length).split(path.sep).join('/');
}

/** denyPaths-style globs (gitignore syntax, case folded), or undefined when there are none or they do not compile. */
export function compileGlobs(globs: readonly string[]) {
  if (globs.length === 0) return undefined;
  try {
    return ignore({ ignorecase: true }).add(globs.map((g) => g.toLowerCase()));
  } catch {
    return undefined;
  }
}

async function findProtectedInside(
  dirReal: string,
  dirRel: string,
  matcher: ProtectedMatcher,
  isIgnored: PathCheckRequest['isIgnored'],
): Promise<{ rule: string; reason: string } | undefined> {
  let seen = 0;
  const queue: [string, string][] = [[dirReal, dirRel]];
  while (queue.length > 0) {
    const [abs, rel] = queue.shift()!;
    let entries;
    try {
      entries = await fs.readdir(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_DELETE_SCAN) {
        return { rule: 'ask:delete-large-directory', reason: `"${dirRel}" holds more than ${MAX_DELETE_SCAN} entries; deleting it needs your approval.` };
      }
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      const dir = e.isDirectory();
      const hit = matcher.match(childRel, dir);
      if (hit) return { rule: `protected:${hit.glob}`, reason: `Deleting "${dirRel}" would delete the protected path "${childRel}" (${hit.why}).` };
      if (isIgnored?.(childRel, dir))
        return { rule: 'ask:delete-ignored', reason: `Deleting "${dirRel}" would delete "${childRel}", which .patchpilotignore hides from the agent.` };
      if (dir) queue.push([path.join(abs, e.name), childRel]);
    }
  }
  return undefined;
}
