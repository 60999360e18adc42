import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Credentials and tokens in the home directory that a sandboxed command must not read. */
export const HIDDEN_HOME_PATHS = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.config/hub', '.npmrc', '.yarnrc', '.netrc', '.docker', '.kube', '.azure',
  '.config/gcloud', '.git-credentials', '.pypirc', '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials',
  '.terraform.d', '.vault-token', '.pgpass', '.my.cnf', '.password-store', '.local/share/keyrings', '.config/op',
  '.mozilla', '.config/google-chrome', '.config/chromium', '.bash_history', '.zsh_history', '.python_history',
  '.node_repl_history', '.config/patchpilot',
];

/**
 * Workspace paths that make code run later, outside the sandbox (git hooks on the next commit, editor
 * tasks, agent and MCP config). The workspace is writable, these stay read-only. Only existing
 * ones can be covered: a mount point would otherwise be created in the user's workspace.
 */
export const READ_ONLY_WORKSPACE_PATHS = [
  '.git/hooks', '.git/config', '.gitmodules', '.vscode', '.patchpilot', '.patchpilotignore', '.mcp.json', '.cursor',
  '.claude', '.husky', '.github/workflows', '.envrc', '.npmrc', '.devcontainer', '.pre-commit-config.yaml',
];

export interface SandboxLayout {
  workspaceRoot: string;
  cwd: string;
  homeDir: string;
  allowNetwork: boolean;
}

/**
 * Arguments for bwrap. Order matters: later mounts cover earlier ones, so the private /tmp comes
 * before the workspace bind (a workspace under /tmp stays visible) and secrets are hidden last.
 *
 * - `--cap-drop ALL`: when PatchPilot runs as root (containers), bwrap would otherwise keep every
 *   capability and the command could simply remount / read-write.
 * - no `--new-session`: the command already starts in its own session without a terminal
 *   (spawn detached), which is what that flag protects against (TIOCSTI), and a second session
 *   would take the command out of the process group we kill on cancel.
 */
export function bwrapArguments(layout: SandboxLayout, command: string): string[] {
  const ws = path.resolve(layout.workspaceRoot);
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', ws, ws];
  const wsReal = safeRealpath(ws);
  if (wsReal !== ws) args.push('--bind', wsReal, wsReal);
  for (const rel of READ_ONLY_WORKSPACE_PATHS) {
    const p = path.join(wsReal, rel);
    // A symlink could point the read-only bind elsewhere; its target is outside our concern then.
    if (existsSync(p) && !lstatSync(p).isSymbolicLink()) args.push('--ro-bind', p, p);
  }
  for (const rel of HIDDEN_HOME_PATHS) {
    const p = path.join(layout.homeDir, rel);
    for (const target of new Set([p, safeRealpath(p)])) {
      if (!existsSync(target)) continue;
      if (isInside(ws, target)) continue;
      if (statSync(target).isDirectory()) args.push('--tmpfs', target);
      else args.push('--ro-bind', '/dev/null', target);
    }
  }
  if (!layout.allowNetwork) args.push('--unshare-net');
  args.push('--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL', '--chdir', path.resolve(layout.cwd));
  args.push('bash', '-c', command);
  return args;
}

function safeRealpath(p: string): string {
  try {
    return lstatSync(p) ? realpathSync(p) : p;
  } catch {
    return p;
  }
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}
