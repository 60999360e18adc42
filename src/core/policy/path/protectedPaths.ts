/**
 * Paths whose change can make something execute or reconfigure a tool (editors, git, CI, package
 * managers, other agents, PatchPilot itself), steer a later run (instruction files), or leak secrets. A write, create or delete of any of
 * them asks, in every approval mode. Matching folds case and Windows name aliases always, so
 * `.VSCode/settings.json` or `.vscode./tasks.json` is protected even on a case-sensitive disk.
 */
import ignore, { type Ignore } from 'ignore';
import { INSTRUCTION_FILES } from './instructionFiles';

export const DEFAULT_PROTECTED_PATHS: readonly { glob: string; why: string }[] = [
  { glob: '.git', why: 'git metadata: config (core.pager, core.fsmonitor, aliases) and hooks run commands' },
  { glob: '.gitmodules', why: 'submodule URLs and transports are fetched and run by git' },
  { glob: '.gitignore', why: 'decides what git status/diff and search show the user for review' },
  { glob: '.vscode/', why: 'VS Code settings, tasks, launch configs and MCP servers (CVE-2025-53773)' },
  { glob: '*.code-workspace', why: 'a workspace file carries settings and tasks like .vscode/' },
  { glob: '.patchpilot/', why: "PatchPilot's own configuration and history database" },
  { glob: '.patchpilotignore', why: "the file that hides paths from PatchPilot's tools" },
  { glob: '.mcp.json', why: 'MCP server definitions start processes' },
  { glob: '/mcp.json', why: 'MCP server definitions start processes' },
  { glob: '.gemini/', why: "another agent's settings and MCP servers" },
  { glob: '.continue/', why: "another agent's configuration and MCP servers" },
  { glob: '.kiro/', why: "another agent's settings and MCP servers" },
  { glob: '.amazonq/', why: "another agent's MCP servers" },
  { glob: '.env*', why: 'environment files hold secrets; .envrc is executed by direnv' },
  { glob: '.github/workflows/', why: 'CI workflows run with repository secrets' },
  { glob: '.github/actions/', why: 'composite actions run inside CI workflows' },
  { glob: '.gitlab-ci.yml', why: 'CI definition runs with secrets' },
  { glob: '.circleci/', why: 'CI definition runs with secrets' },
  { glob: '.husky/', why: 'git hooks run on commit and push' },
  { glob: '.pre-commit-config.yaml', why: 'git hooks run on commit' },
  { glob: 'lefthook.yml', why: 'git hooks run on commit' },
  { glob: '.devcontainer/', why: 'container lifecycle commands run on rebuild' },
  { glob: '.npmrc', why: 'package manager config: registry, tokens, node-options, script shell' },
  { glob: '.yarnrc', why: 'package manager config' },
  { glob: '.yarnrc.yml', why: 'package manager config and plugins (executed)' },
  { glob: '.pnpmfile.cjs', why: 'pnpm hooks are executed on install' },
  // Instructions and notes a later run loads (PatchPilot's own prompt sources included): one list, instructionFiles.ts.
  ...INSTRUCTION_FILES,
];

/**
 * Folds a workspace-relative POSIX path for matching: lower case, and per segment the aliases
 * Windows resolves to the same file (trailing dots and spaces, `::$DATA` stream suffixes).
 */
export function foldForMatch(rel: string): string {
  return rel
    .split('/')
    .map((seg) =>
      seg
        .toLowerCase()
        .replace(/:.*$/, '')
        .replace(/[. ]+$/, (m) => (seg === '.' || seg === '..' ? m : '')),
    )
    .join('/');
}

/**
 * An extra protected glob: a user's (`patchpilot.policy.protectedPaths`, a plain string) or one
 * added at wiring time with its own reason (the files an MCP server's launch names).
 */
export type ProtectedGlob = string | { glob: string; why: string };

const USER_GLOB_WHY = 'listed in patchpilot.policy.protectedPaths';

export interface ProtectedMatcher {
  /** The matching glob (or undefined) for a workspace-relative POSIX path. */
  match(rel: string, isDir?: boolean): { glob: string; why: string } | undefined;
}

export function createProtectedMatcher(extraGlobs: readonly ProtectedGlob[] = []): ProtectedMatcher {
  const entries = [...DEFAULT_PROTECTED_PATHS, ...extraGlobs.map((g) => (typeof g === 'string' ? { glob: g, why: USER_GLOB_WHY } : g))];
  const compiled: { ig: Ignore; entry: { glob: string; why: string } }[] = [];
  for (const entry of entries) {
    try {
      compiled.push({ ig: ignore({ ignorecase: true }).add(entry.glob.toLowerCase()), entry });
    } catch {
      // An invalid user glob cannot protect anything; the rest still apply.
    }
  }
  return {
    match(rel, isDir) {
      const folded = foldForMatch(rel);
      if (folded === '' || folded === '.') return undefined;
      for (const { ig, entry } of compiled) {
        if (ig.ignores(folded) || (isDir && ig.ignores(`${folded}/`))) return entry;
      }
      return undefined;
    },
  };
}

/**
 * The same set as one yes/no test, for walks over a whole workspace: one compiled matcher instead of
 * one per glob (whose per-path caches made a 100,000-entry walk slow).
 */
export function createProtectedTest(extraGlobs: readonly ProtectedGlob[] = []): (rel: string, isDir?: boolean) => boolean {
  const ig = ignore({ ignorecase: true });
  for (const glob of [...DEFAULT_PROTECTED_PATHS.map((e) => e.glob), ...extraGlobs.map((g) => (typeof g === 'string' ? g : g.glob))]) {
    try {
      ig.add(glob.toLowerCase());
    } catch {
      // An invalid user glob cannot protect anything; the rest still apply.
    }
  }
  return (rel, isDir) => {
    const folded = foldForMatch(rel);
    if (folded === '' || folded === '.') return false;
    return ig.ignores(folded) || (isDir === true && ig.ignores(`${folded}/`));
  };
}
