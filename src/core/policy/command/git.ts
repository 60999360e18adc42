import path from 'node:path';
import { findOptions, positionals } from './options';
import { classifyWriteTarget, isInside, resolveWordPath } from './paths';
import type { VetContext } from './flags';
import type { Finding, Word } from './types';

/**
 * git is where read-only goes to die: `-c core.pager=...`, `--exec-path`, `-p`, `--output`,
 * `--ext-diff`, aliases, and a `-C` into a foreign repository whose config runs hooks
 * (core.fsmonitor). Global options are removed before rules match, then vetted here.
 */
export interface GitView {
  /** argv with global options removed: ["git", "log", ...]. */
  argv: Word[];
  findings: Finding[];
}

const ask = (rule: string, reason: string, flag?: string): Finding => ({ verdict: 'ask', rule, reason, flag });

const HARMLESS_GLOBALS = new Set([
  '--no-pager',
  '-P',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-advice',
  '--bare',
  '--version',
  '--help',
]);

export function gitView(argv: Word[], ctx: VetContext): GitView {
  const findings: Finding[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (w.dynamic || w.glob) {
      findings.push(ask('ask:git-dynamic', `git argument "${w.raw}" is known only at run time.`));
      continue;
    }
    if (!v.startsWith('-')) break;
    const name = v.split('=')[0]!;
    if (HARMLESS_GLOBALS.has(v)) continue;
    if (name === '-C') {
      const dir = argv[++i];
      checkRepoDir(dir, ctx, findings);
      continue;
    }
    if (name === '-c' || (v.startsWith('-c') && !v.startsWith('--'))) {
      findings.push(ask('ask:git-c', '`git -c` overrides configuration, which can run programs (core.pager, core.sshCommand, aliases).', '-c'));
      if (v === '-c') i++;
      continue;
    }
    const long: Record<string, string> = {
      '--config-env': 'sets configuration from the environment, which can run programs',
      '--exec-path': 'changes where git looks for its programs',
      '--paginate': 'starts a pager program',
      '--git-dir': 'points git at another repository and its configuration',
      '--work-tree': 'points git at another work tree',
      '--namespace': 'changes the ref namespace',
      '--super-prefix': 'is an internal option',
      '--attr-source': 'reads attributes that select filter programs',
      '--list-cmds': 'lists commands',
    };
    const key = Object.keys(long).find((k) => k === name || (name.length >= 4 && k.startsWith(name)));
    if (key) {
      findings.push(ask(`ask:git${key}`, `\`git ${key}\` ${long[key]}.`, key));
      if (!v.includes('=') && ['--config-env', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--attr-source'].includes(key)) i++;
      continue;
    }
    if (v === '-p') {
      findings.push(ask('ask:git-p', '`git -p` starts a pager program.', '-p'));
      continue;
    }
    findings.push(ask('ask:git-unknown-option', `Unknown git option "${v}".`));
  }
  const rest = argv.slice(i);
  const view = [argv[0]!, ...rest];
  findings.push(...vetSubcommand(rest, ctx));
  return { argv: view, findings };
}

function checkRepoDir(dir: Word | undefined, ctx: VetContext, out: Finding[]): void {
  if (!dir || dir.dynamic || dir.glob) {
    out.push(ask('ask:git-C', '`git -C` with a directory known only at run time.'));
    return;
  }
  for (const c of ctx.cwds) {
    const abs = resolveWordPath(dir, c, ctx.homeDir);
    if (!abs || !isInside(ctx.workspaceRoot, abs)) {
      out.push(ask('ask:git-C-outside', `\`git -C ${dir.raw}\` runs git in another repository, whose configuration can run programs.`));
      return;
    }
  }
}

const DIFF_EXEC = ['--ext-diff', '--textconv'];

function vetSubcommand(rest: Word[], ctx: VetContext): Finding[] {
  const sub = rest[0]?.value;
  const args = rest.slice(1);
  const out: Finding[] = [];
  // --output writes a file whatever the subcommand.
  for (const o of findOptions(args, { long: ['--output'], takesValue: true })) {
    out.push(ask('ask:git--output', '`git --output` writes a file.', '--output'));
    out.push(...classifyWriteTarget(o.value, ctx.cwds, ctx, '`git --output`'));
  }
  for (const o of findOptions(args, { long: DIFF_EXEC, exactLong: false })) {
    out.push(ask(`ask:git${o.flag}`, `\`git ${o.flag}\` runs external diff or conversion programs.`, o.flag));
  }
  out.push(...ignoredBlobFindings(sub, args, ctx));
  switch (sub) {
    case 'grep':
      for (const o of findOptions(args, { long: ['--open-files-in-pager'], short: ['-O'] })) {
        out.push(ask('ask:git-grep-O', '`git grep -O` opens matches in a pager program.', o.flag));
      }
      break;
    case 'branch':
      if (branchWrites(args)) out.push(ask('ask:git-branch-write', '`git branch` with these arguments creates, renames or deletes branches.'));
      break;
    case 'config':
      if (!isConfigRead(args)) {
        out.push(ask('ask:git-config-write', '`git config` other than a plain read changes configuration that can run programs.'));
      }
      break;
    case 'stash':
    case 'tag':
    case 'remote':
    case 'reflog':
      // Only the listing forms are on the allowlist; rules decide.
      break;
  }
  return out;
}

/** `git show HEAD:.env` reads a file through git: the path after the colon counts as named. */
function ignoredBlobFindings(sub: string | undefined, args: Word[], ctx: VetContext): Finding[] {
  const out: Finding[] = [];
  if (!ctx.isIgnoredPath) return out;
  for (const a of args) {
    const m = /^[^-][^:]*:(?:[0-3]:)?(.+)$/.exec(a.value) ?? /^:(?:[0-3]:)?(.+)$/.exec(a.value);
    if (!m || a.dynamic) continue;
    const candidates = [path.resolve(ctx.workspaceRoot, m[1]!), ...ctx.cwds.map((c) => path.resolve(c, m[1]!))];
    if (candidates.some((c) => ctx.isIgnoredPath!(c))) {
      out.push(ask('ask:ignored-path', `\`git ${sub} ${a.raw}\` reads a file .patchpilotignore hides from the agent.`));
    }
  }
  return out;
}

/** `git branch` with these arguments creates, renames or deletes branches (not a listing). */
function branchWrites(args: Word[]): boolean {
  const writes = findOptions(args, {
    long: ['--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description', '--track', '--create-reflog'],
    short: ['-d', '-D', '-m', '-M', '-c', '-C', '-f', '-u'],
  });
  const listing = findOptions(args, { long: ['--list', '--show-current', '--contains', '--merged', '--no-merged', '--points-at'], short: ['-l'] }).length > 0;
  return writes.length > 0 || (!listing && positionals(args, ['--sort', '--format', '--contains', '--merged', '--no-merged']).length > 0);
}

/** Options a plain `git config` read may carry. */
const CONFIG_READ_OPTIONS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--list',
  '-l',
  '--get-urlmatch',
  'get',
  'list',
  '--show-origin',
  '--show-scope',
  '--null',
  '-z',
  '--name-only',
  '--includes',
  '--local',
  '--global',
  '--system',
  '--worktree',
  '--default',
  '--type',
  '--bool',
  '--int',
  '--path',
];

/** `git config` as a plain read of the repository's configuration, nothing else. */
function isConfigRead(args: Word[]): boolean {
  const isRead = args.some((a) => ['--get', '--get-all', '--get-regexp', '--list', '-l', '--get-urlmatch', 'get', 'list'].includes(a.value));
  const nonRead = args.filter((a) => a.value.startsWith('-') && !CONFIG_READ_OPTIONS.includes(a.value.split('=')[0]!));
  return isRead && nonRead.length === 0 && findOptions(args, { long: ['--file', '--blob'], short: ['-f'] }).length === 0;
}
