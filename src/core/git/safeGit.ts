/**
 * The one way PatchPilot itself runs git (listing, snapshots, auto-commit). These calls run outside
 * the sandbox, in a workspace the agent writes to, so nothing the workspace holds may decide what
 * they execute:
 * - the repository is located by us (repoLayout.ts) and passed explicitly: no discovery, no bare
 *   layouts, no commondir or gitfile leading to a planted config;
 * - every config key that names a program is overridden on the command line (neutralConfig.ts);
 * - subcommands come from a closed list, each with its own forced flags (no hooks on commit, no
 *   external diff or textconv on diff), so no caller can forget them;
 * - the environment keeps the user's identity and global config but no variable that would move
 *   git elsewhere or start a program (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, PAGER ...).
 * Git runs through simple-git, whose argument guard stays on for every category PatchPilot does not
 * set on purpose (see ALLOWED_UNSAFE): a caller's arguments cannot add `--upload-pack`, `ext::`,
 * `--exec-path`, aliases, includes, templates or URL rewrites. Callers never pass options before the
 * subcommand, and paths go after `--`.
 */
import { simpleGit, type SimpleGitOptions } from 'simple-git';
import { spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { driverOverrides, hasConfig, overrideArgs } from './neutralConfig';
import { locateRepository } from './repoLayout';
import { errorMessage } from '../base';

/** Subcommands PatchPilot runs, with the flags each always gets. */
const SUBCOMMANDS = {
  'ls-files': [],
  status: ['--ignore-submodules=all'],
  'rev-parse': [],
  'symbolic-ref': [],
  add: [],
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all'],
  commit: ['--no-verify', '--no-gpg-sign'],
} as const satisfies Record<string, readonly string[]>;

export type GitSubcommand = keyof typeof SUBCOMMANDS;

/** The only config a caller may add: the fallback commit identity. */
const CALLER_KEYS = new Set(['user.name', 'user.email']);

/** Variables kept from PatchPilot's environment; every other GIT_* one is dropped. */
const KEPT_GIT_VARS = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
]);
const DROPPED_VARS = ['PAGER', 'EDITOR', 'VISUAL', 'SSH_ASKPASS'];

export type GitOpenResult =
  | { kind: 'repo'; git: SafeGit }
  | { kind: 'none' }
  /** The repository looks tampered with (or its config cannot be neutralised): git is not run. */
  | { kind: 'refused'; reason: string };

export class SafeGit {
  private constructor(
    /** Where relative paths given to and printed by git are rooted (the workspace root). */
    readonly cwd: string,
    private readonly base: string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly configList: string,
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Locates the repository of the workspace `root` (a real path) and reads its effective config
   * once, to know which free-name drivers to neutralise. Open again for each operation: config
   * the agent changes later is read again then.
   */
  static async open(workspaceRoot: string, signal?: AbortSignal): Promise<GitOpenResult> {
    const root = await realpath(workspaceRoot);
    const layout = locateRepository(root);
    if (layout.kind !== 'repo') return layout;
    const env = gitEnv(layout.workTree);
    const located = ['--no-pager', `--git-dir=${layout.gitDir}`, `--work-tree=${layout.workTree}`];
    // Reading config executes nothing; the fixed overrides apply already (includes are honoured).
    const list = await execGit(root, [...located, ...overrideArgs([]), 'config', '--list', '-z'], env, signal);
    let drivers;
    try {
      drivers = driverOverrides(list);
    } catch (err) {
      return { kind: 'refused', reason: `${errorMessage(err)}; PatchPilot does not run git on this repository.` };
    }
    return { kind: 'repo', git: new SafeGit(root, [...located, ...overrideArgs(drivers)], env, list, signal) };
  }

  /** `config`: extra `-c` settings, only of keys that run nothing (CALLER_KEYS). */
  run(subcommand: GitSubcommand, args: readonly string[] = [], config: readonly (readonly [string, string])[] = []): Promise<string> {
    const extra = config.flatMap(([k, v]) => {
      if (!CALLER_KEYS.has(k)) throw new Error(`git config ${k} cannot be set by a caller`);
      return ['-c', `${k}=${v}`];
    });
    return execGit(this.cwd, [...this.base, ...extra, subcommand, ...SUBCOMMANDS[subcommand], ...args], this.env, this.signal);
  }

  /**
   * `git cat-file --batch` or `--batch-check=<format>` fed `ids` on its input: the objects' raw bytes
   * (no --filters or --textconv, so no driver runs). Spawned directly: simple-git has no binary output.
   */
  catFile(mode: '--batch' | `--batch-check=${string}`, ids: readonly string[]): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', [...this.base, 'cat-file', mode], {
        cwd: this.cwd,
        env: this.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(this.signal ? { signal: this.signal } : {}),
      });
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git cat-file failed: ${err.trim() || `exit ${code}`}`))));
      child.stdin.on('error', () => undefined); // a git that died early: reported by close
      child.stdin.end(ids.length ? `${ids.join('\n')}\n` : '');
    });
  }

  /** Whether the user's config (global or the repository's) sets `key`: no extra git call. */
  hasConfig(key: string): boolean {
    return hasConfig(this.configList, key);
  }
}

function gitEnv(workTree: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if ((k.startsWith('GIT_') && !KEPT_GIT_VARS.has(k)) || DROPPED_VARS.includes(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_LAZY_FETCH: '1',
    // status then does not rewrite the index: the user's own git is not disturbed, no index hooks.
    GIT_OPTIONAL_LOCKS: '0',
    // Belt and braces: even a git started without our --git-dir never looks above the work tree.
    GIT_CEILING_DIRECTORIES: path.dirname(workTree),
    LC_ALL: 'C',
  };
}

/**
 * The guard categories PatchPilot's own arguments trip, each by a value that turns something OFF
 * (neutralConfig.ts): found by running each override through simple-git 4 with the guard fully on.
 * - ConfigPaths: `--git-dir`, `--work-tree` (the repository located by us, never discovered) and the
 *   user's GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM;
 * - FsMonitor, HooksPath, Pager, Editor, AskPass, SshCommand, GitProxy, DiffExternal, GpgProgram:
 *   `core.fsmonitor=false`, `core.hooksPath=/dev/null`, `core.pager=cat` and `pager.<cmd>=false`,
 *   `core.editor=:` / `sequence.editor=:`, and empty `core.askPass`, `core.sshCommand`,
 *   `core.gitProxy`, `diff.external`, `diff.<driver>.command`, `gpg[.<format>].program`;
 * - Pack, ProtocolOverride: `uploadpack.packObjectsHook=`, `remote.<name>.uploadpack=` /
 *   `receivepack=`, and `protocol.allow=never` (no transport at all);
 * - Filter, DiffTextConv, MergeDriver, CredentialHelper: the free-name drivers a repository's
 *   config defines, overridden with empty values (driverOverrides), and `credential.helper=`.
 * Still refused, for our arguments and the callers' alike: aliases, includes, template dirs,
 * submodule and URL-rewrite config, `--exec-path`, command binaries, and config from the environment.
 */
const ALLOWED_UNSAFE: SimpleGitOptions['unsafe'] = {
  allowUnsafeConfigPaths: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeHooksPath: true,
  allowUnsafePager: true,
  allowUnsafeEditor: true,
  allowUnsafeAskPass: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeGpgProgram: true,
  allowUnsafePack: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeFilter: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeMergeDriver: true,
  allowUnsafeCredentialHelper: true,
};

/** The GIT_* variables gitEnv() passes (simple-git's environment guard refuses any other). */
const ALLOWED_ENV = [
  ...KEPT_GIT_VARS,
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_TERMINAL_PROMPT',
  'GIT_NO_LAZY_FETCH',
  'GIT_OPTIONAL_LOCKS',
  'GIT_CEILING_DIRECTORIES',
];

async function execGit(cwd: string, args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  const git = simpleGit({
    baseDir: cwd,
    binary: 'git',
    maxConcurrentProcesses: 4,
    trimmed: false,
    unsafe: ALLOWED_UNSAFE,
    allowEnvironment: ALLOWED_ENV,
    ...(signal ? { abort: signal } : {}),
  }).env(env as Record<string, string>);
  try {
    return await git.raw(args);
  } catch (err) {
    const what = args.find((a) => a in SUBCOMMANDS || a === 'config') ?? '';
    throw new Error(`git ${what} failed: ${errorMessage(err).trim()}`);
  }
}

/**
 * `patchpilot batch`'s clone of a repository the user named by URL, shallow, into the new folder
 * `dir`, before any agent works in it. The same environment as every other git call here, and
 * simple-git's argument guard with nothing else unlocked (no `--upload-pack`, no `ext::` transport).
 */
export async function cloneShallow(url: string, dir: string, signal?: AbortSignal): Promise<void> {
  const git = simpleGit({
    baseDir: path.dirname(dir),
    binary: 'git',
    trimmed: false,
    // Only for the harmless GIT_PAGER and GIT_EDITOR values gitEnv() sets itself.
    unsafe: { allowUnsafePager: true, allowUnsafeEditor: true },
    allowEnvironment: ALLOWED_ENV,
    ...(signal ? { abort: signal } : {}),
  }).env(gitEnv(dir) as Record<string, string>);
  try {
    await git.clone(url, dir, ['--quiet', '--depth', '1', '--no-recurse-submodules']);
  } catch (err) {
    throw new Error(`git clone ${url} failed: ${errorMessage(err).trim()}`);
  }
}
