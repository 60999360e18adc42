import os from 'node:os';
import path from 'node:path';

/**
 * PatchPilot's per-user state folder, outside every workspace: what a repository must not be able
 * to write (the key that signs MCP approvals). PATCHPILOT_STATE_HOME, else the platform's place
 * ($XDG_STATE_HOME/patchpilot, ~/.local/state/patchpilot; %LOCALAPPDATA%\patchpilot on Windows).
 * The extension passes its globalStorage folder instead.
 */
export function defaultUserStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PATCHPILOT_STATE_HOME) return path.resolve(env.PATCHPILOT_STATE_HOME);
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'patchpilot');
  const xdg = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(os.homedir(), '.local', 'state');
  return path.join(xdg, 'patchpilot');
}
