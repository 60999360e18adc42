import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { compileGlob, type Matcher } from '../../base/wildcard';
import { createProtectedMatcher, type ProtectedMatcher } from '../path/protectedPaths';
import type { Finding, Word } from './types';

export interface PathContext {
  workspaceRoot: string;
  homeDir: string;
  isIgnoredPath?: (absPath: string) => boolean;
}

/**
 * The absolute path a word names, resolved like the shell would before the program sees it:
 * `~`, `$HOME`, `${HOME}` and `$PWD` are known; any other expansion makes it unknowable.
 */
export function resolveWordPath(word: Word, cwd: string, home: string): string | undefined {
  let v = word.value;
  v = v
    .replace(/^~(?=\/|$)/, home)
    .replace(/^\$\{?HOME\}?(?=\/|$)/, home)
    .replace(/^"?\$\{?PWD\}?"?(?=\/|$)/, cwd);
  if (/[$`]/.test(v) || v.startsWith('~')) return undefined;
  return path.resolve(cwd, v);
}

/** Lexical containment, then the real path of the deepest existing ancestor (symlinked parents). */
export function isInside(root: string, abs: string): boolean {
  const norm = (p: string) => (process.platform === 'linux' ? p : p.toLowerCase());
  const r = norm(path.resolve(root));
  const lexical = norm(abs);
  if (!(lexical === r || lexical.startsWith(r.endsWith(path.sep) ? r : r + path.sep))) return false;
  const real = norm(realPathBestEffort(abs));
  const realRoot = norm(realPathBestEffort(root));
  return real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}

export function realPathBestEffort(abs: string): string {
  let cur = abs;
  const rest: string[] = [];
  while (!existsSync(cur)) {
    const parent = path.dirname(cur);
    if (parent === cur) return abs;
    rest.unshift(path.basename(cur));
    cur = parent;
  }
  try {
    return path.join(realpathSync(cur), ...rest);
  } catch {
    return abs;
  }
}

const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2', '/proc/self/fd/1', '/proc/self/fd/2']);
const SYSTEM_DIRS = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/boot', '/sys', '/proc', '/dev', '/var', '/opt', '/root'];

/** Workspace-relative paths that configure the agent, the editor or git: writes there need a human. */
export function protectedReason(workspaceRoot: string, abs: string): string | undefined {
  const rel = path
    .relative(workspaceRoot, abs)
    .split(path.sep)
    .map((s) => s.toLowerCase());
  const base = rel[rel.length - 1] ?? '';
  if (rel.includes('.git')) return '.git/ (hooks and config run code)';
  if (rel.includes('.vscode')) return '.vscode/ (settings and tasks run code)';
  if (rel.includes('.patchpilot')) return '.patchpilot/ (agent configuration)';
  if (rel.includes('.cursor') || rel.includes('.idea') || rel.includes('.devcontainer')) return 'editor configuration';
  if (base === '.patchpilotignore') return '.patchpilotignore (what the agent may not read)';
  if (base === '.mcp.json' || base === 'mcp.json') return 'MCP server configuration';
  if (base.startsWith('.env')) return '.env files (secrets)';
  if (rel[0] === '.github' && rel[1] === 'workflows') return 'CI workflows';
  if (rel[0] === '.husky') return 'git hooks';
  // The path half's list (one source of truth for what a write must not silently touch).
  if (rel[0] === '..' || path.isAbsolute(rel.join('/'))) return undefined;
  pathHalf ??= createProtectedMatcher();
  const m = pathHalf.match(path.relative(workspaceRoot, abs).split(path.sep).join('/'));
  return m ? `${m.glob} (${m.why})` : undefined;
}

let pathHalf: ProtectedMatcher | undefined;

/**
 * Where a write may land: inside the workspace (fine), a protected path (ask), or outside (deny:
 * the agent has file tools for its own files, and no goal needs a shell write outside the workspace).
 */
export function classifyWriteTarget(word: Word | undefined, cwds: string[], ctx: PathContext, what: string): Finding[] {
  if (!word) return [];
  // `$HOME/x` and `~/x` are known; any other expansion or a glob is not.
  if (word.glob || (word.dynamic && cwds.some((c) => resolveWordPath(word, c, ctx.homeDir) === undefined))) {
    return [{ verdict: 'ask', rule: 'ask:write-target-unknown', reason: `${what} writes to "${word.raw}", known only at run time.` }];
  }
  const out: Finding[] = [];
  for (const cwd of cwds) {
    const abs = resolveWordPath(word, cwd, ctx.homeDir);
    if (!abs) {
      out.push({ verdict: 'ask', rule: 'ask:write-target-unknown', reason: `${what} writes to "${word.raw}", known only at run time.` });
      continue;
    }
    if (HARMLESS_DEVICES.has(abs)) continue;
    if (!isInside(ctx.workspaceRoot, abs)) {
      const system = abs === '/' || SYSTEM_DIRS.some((d) => abs === d || abs.startsWith(d + '/'));
      out.push({
        verdict: 'deny',
        rule: system ? 'deny:write-system-path' : 'deny:write-outside-workspace',
        reason: `${what} writes to ${abs}, outside the workspace${system ? ' (a system path)' : ''}. Write inside ${ctx.workspaceRoot} instead.`,
      });
      continue;
    }
    const prot = protectedReason(ctx.workspaceRoot, realPathBestEffort(abs)) ?? protectedReason(ctx.workspaceRoot, abs);
    if (prot) out.push({ verdict: 'ask', rule: 'protected:' + prot.split(' ')[0], reason: `${what} writes to ${abs}: ${prot} needs approval.` });
    if (ctx.isIgnoredPath?.(abs)) out.push({ verdict: 'ask', rule: 'ask:ignored-path', reason: `${abs} is listed in .patchpilotignore.` });
  }
  return out;
}

/** A path a command reads or names: outside the workspace or ignored => ask. */
export function classifyReadTarget(word: Word, cwds: string[], ctx: PathContext, what: string): Finding[] {
  const out: Finding[] = [];
  for (const cwd of cwds) {
    const prefix = word.glob ? globPrefix(word.value) : word.value;
    const abs = resolveWordPath({ ...word, value: prefix }, cwd, ctx.homeDir);
    if (!abs && /^~[^/]/.test(word.value)) {
      out.push({ verdict: 'ask', rule: 'ask:path-outside-workspace', reason: `${what} names ${word.raw}, another user's home directory.` });
      continue;
    }
    if (!abs || HARMLESS_DEVICES.has(abs)) continue;
    if (!isInside(ctx.workspaceRoot, abs)) {
      out.push({ verdict: 'ask', rule: 'ask:path-outside-workspace', reason: `${what} names ${abs}, outside the workspace.` });
    } else if (ctx.isIgnoredPath && (ctx.isIgnoredPath(abs) || (word.glob && globMayHitIgnored(word.value, cwd, ctx)))) {
      out.push({ verdict: 'ask', rule: 'ask:ignored-path', reason: `${what} names ${word.raw}, which .patchpilotignore hides from the agent.` });
    }
  }
  return out;
}

/** The directory part of a glob that is certain: `src/*.ts` -> `src`, `*` -> `.`. */
function globPrefix(v: string): string {
  const i = v.search(/[*?[]/);
  const head = v.slice(0, i);
  const slash = head.lastIndexOf('/');
  return slash >= 0 ? head.slice(0, slash) || '/' : '.';
}

/** Would the glob match an ignored file? Only the last segment is expanded; deeper globs are assumed to. */
function globMayHitIgnored(v: string, cwd: string, ctx: PathContext): boolean {
  const dir = globPrefix(v);
  const rest = v.slice(dir === '.' && !v.startsWith('./') ? 0 : dir.length + 1);
  if (rest.includes('/')) return true;
  let re: Matcher;
  try {
    re = compileGlob(rest, { braces: false }); // linear: the model chose this word (attacks.patterns)
  } catch {
    return true; // too long to judge: assume it does
  }
  const base = resolveWordPath({ value: dir, dynamic: false, glob: false, raw: dir }, cwd, ctx.homeDir);
  if (!base) return true;
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return false;
  }
  return names.some((n) => re.test(n) && ctx.isIgnoredPath!(path.join(base, n)));
}
