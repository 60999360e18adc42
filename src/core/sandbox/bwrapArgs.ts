import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Credentials and tokens in the home directory that a sandboxed command must not read. */
export const HIDDEN_HOME_PATHS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/hub',
  '.npmrc',
  '.yarnrc',
  '.netrc',
  '.docker',
  '.kube',
  '.azure',
  '.config/gcloud',
  '.git-credentials',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d',
  '.vault-token',
  '.pgpass',
  '.my.cnf',
  '.password-store',
  '.local/share/keyrings',
  '.config/op',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.config/patchpilot',
];

/**
 * (attacks.sandbox) the home folder is hidden by default (an empty tmpfs), with these named exceptions bound back
 * read-only: toolchains and package caches that builds and tests need, none of which holds
 * credentials. Anything not listed (~/.gradle/gradle.properties, ~/.config/<tool>/token...) stays
 * unreadable. `patchpilot.policy.homeAllow` adds more (user settings only).
 */
export const HOME_EXCEPTIONS = [
  '.gitconfig',
  '.config/git/config',
  '.config/git/ignore',
  '.config/git/attributes',
  '.nvm',
  '.volta',
  '.fnm',
  '.asdf',
  '.pyenv',
  '.rbenv',
  '.rustup',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.local/bin',
  '.local/lib',
  '.local/share/pnpm',
  '.npm/_cacache',
  '.cache/pip',
  '.cache/yarn',
  '.cache/pnpm',
  '.cache/go-build',
  '.cache/node-gyp',
  '.cache/pypoetry',
  '.cache/ms-playwright',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.sdkman',
  '.bun',
  '.deno',
  'go',
  '.dotnet',
  '.nuget/packages',
  '.yarn/berry/cache',
];

export interface SandboxLayout {
  workspaceRoot: string;
  cwd: string;
  /** Home folders to hide ($HOME and the account's own, when they differ). */
  homeDirs: readonly string[];
  /** Extra home-relative paths to leave readable (patchpilot.policy.homeAllow). */
  homeAllow?: readonly string[];
  /**
   * Absolute folders bound back read-only wherever they are (under the private /tmp or a hidden
   * home): the extension's bundled skills, whose scripts the agent runs.
   */
  readOnlyPaths?: readonly string[];
  allowNetwork: boolean;
  /** The protected guard's mounts (read-only protected paths, masked ignored files), after the workspace bind. */
  workspaceMounts?: readonly string[];
  /** Allowlisted unix sockets bound back and other sockets masked (unixSockets.ts), applied last. */
  socketMounts?: readonly string[];
  /** The fd (of the spawned bwrap) holding the seccomp program that refuses AF_UNIX sockets. */
  seccompFd?: number;
}

/**
 * Arguments for bwrap. Order matters: later mounts cover earlier ones, so the private /tmp and the
 * hidden homes come before the workspace bind (a workspace under /tmp or ~ stays visible), the
 * guard's read-only binds and masks follow it, and the secret list is applied last.
 *
 * - `--cap-drop ALL`: when PatchPilot runs as root (containers), bwrap would otherwise keep every
 *   capability and the command could simply remount / read-write.
 * - no `--new-session`: the command already starts in its own session without a terminal
 *   (spawn detached), which is what that flag protects against (TIOCSTI), and a second session
 *   would take the command out of the process group we kill on cancel.
 */
export function bwrapArguments(layout: SandboxLayout, command: string): string[] {
  const ws = path.resolve(layout.workspaceRoot);
  const wsReal = safeRealpath(ws);
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', ...runHiding()];
  const homes = [...new Set(layout.homeDirs.map((h) => path.resolve(h)))].filter((h) => hideable(h, wsReal));
  for (const home of homes) {
    args.push('--tmpfs', home);
    for (const rel of [...HOME_EXCEPTIONS, ...(layout.homeAllow ?? [])]) {
      const p = path.join(home, rel);
      if (!isInside(home, p)) continue;
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
      else args.push('--ro-bind', p, p);
    }
  }
  for (const p of new Set((layout.readOnlyPaths ?? []).flatMap((p) => [path.resolve(p), safeRealpath(path.resolve(p))]))) {
    if (existsSync(p) && p !== path.parse(p).root) args.push('--ro-bind', p, p);
  }
  args.push('--bind', ws, ws);
  if (wsReal !== ws) args.push('--bind', wsReal, wsReal);
  args.push(...(layout.workspaceMounts ?? []));
  // Within what is still visible (an exception, or a home that could not be hidden), the known secrets.
  for (const home of new Set(layout.homeDirs.map((h) => path.resolve(h)))) {
    for (const rel of HIDDEN_HOME_PATHS) {
      const p = path.join(home, rel);
      for (const target of new Set([p, safeRealpath(p)])) {
        if (!existsSync(target) || isInside(ws, target) || isInside(wsReal, target)) continue;
        if (homes.includes(home) && isInside(home, target) && !visibleException(home, target, layout.homeAllow)) continue;
        if (statSync(target).isDirectory()) args.push('--tmpfs', target);
        else args.push('--ro-bind', '/dev/null', target);
      }
    }
  }
  args.push(...(layout.socketMounts ?? []));
  if (!layout.allowNetwork) args.push('--unshare-net');
  if (layout.seccompFd !== undefined) args.push('--seccomp', String(layout.seccompFd));
  args.push('--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL', '--chdir', path.resolve(layout.cwd));
  args.push('bash', '-c', command);
  return args;
}

/**
 * `/run` (and `/var/run` where it is its own folder) is an empty tmpfs: it holds the host's sockets
 * (docker.sock, the system bus, `/run/user/<uid>` with the user's bus, gpg-agent and keyrings) and
 * container secrets (`/run/secrets`), none of which a build needs. What commands do need from it is
 * bound back read-only: the file `/etc/resolv.conf` points to (systemd-resolved, NetworkManager,
 * resolvconf keep it there), and the `/run/shm` link to `/dev/shm`.
 */
function runHiding(): string[] {
  const args: string[] = [];
  for (const dir of ['/run', '/var/run']) {
    try {
      if (lstatSync(dir).isDirectory()) args.push('--tmpfs', dir);
    } catch {
      /* absent */
    }
  }
  if (args.length === 0) return args;
  const hidden = args.filter((a) => a !== '--tmpfs');
  try {
    if (lstatSync('/run/shm').isSymbolicLink()) args.push('--symlink', readlinkSync('/run/shm'), '/run/shm');
  } catch {
    /* absent */
  }
  const resolv = safeRealpath('/etc/resolv.conf');
  if (hidden.some((dir) => isInside(dir, resolv)) && existsSync(resolv)) args.push('--ro-bind', resolv, resolv);
  return args;
}

function safeRealpath(p: string): string {
  try {
    return lstatSync(p) ? realpathSync(p) : p;
  } catch {
    return p;
  }
}

/** A home can be hidden unless it is `/`, or the workspace itself or a folder inside it. */
function hideable(home: string, wsReal: string): boolean {
  if (home === path.parse(home).root) return false;
  if (!existsSync(home)) return false;
  return !isInside(wsReal, home);
}

function visibleException(home: string, target: string, extra: readonly string[] = []): boolean {
  return [...HOME_EXCEPTIONS, ...extra].some((rel) => isInside(path.join(home, rel), target));
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}
