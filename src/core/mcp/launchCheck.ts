/**
 * Where a server's launch stands against its approval, computed once per look: the launch's
 * fingerprint, what its approval binds now (policy/launch: the named workspace files, and outside
 * the sandbox the workspace tree), the key a yes or a no is about, and why an approval no longer
 * matches. (Each look hashes the files once, not once per question asked of it.)
 */
import type { McpServerConfig } from '../config/mcpServers';
import { bindCode, bindingKey, hash, staleReason, type CodeBinding, type FileHasher, type Launch, type LaunchFiles } from '../policy/launch';
import type { ServerApproval } from '../approvals/mcpServers';
import { launchFingerprint } from './fingerprint';

export interface LaunchCheck {
  fingerprint: string;
  files: LaunchFiles;
  /** The workspace tree, when the server would run outside the sandbox (and is not running yet). */
  binding: CodeBinding;
  /** What a yes or a no is about: the launch and its code. */
  key: string;
  approved: boolean;
  /** Why the approval no longer matches; undefined for a new server or a matching one. */
  changeReason?: string;
}

export interface LaunchPlace {
  /** The server runs (or would run) outside the sandbox: the workspace tree is part of its approval. */
  outsideSandbox: boolean;
  /** The state folder, left out of the tree. */
  stateDir?: string;
}

export function checkLaunch(root: string, config: McpServerConfig, approval: ServerApproval | undefined, hasher: FileHasher, place: LaunchPlace): LaunchCheck {
  const fingerprint = launchFingerprint(config);
  const local = config.transport === 'stdio';
  const binding = bindCode({
    root,
    launch: asLaunch(config),
    outsideSandbox: local && place.outsideSandbox,
    hasher,
    ...(place.stateDir ? { stateDir: place.stateDir } : {}),
  });
  const files = binding.files;
  const key = hash({ launch: fingerprint, code: bindingKey(binding) });
  const base = { fingerprint, files, binding, key };
  if (!approval) return { ...base, approved: false };
  if (approval.launch !== fingerprint)
    return { ...base, approved: false, changeReason: 'its command, arguments, environment or URL changed since it was approved' };
  const stale = staleReason({ files: approval.files, tree: approval.tree }, binding);
  return stale ? { ...base, approved: false, changeReason: stale } : { ...base, approved: true };
}

/** The launch a server's files are looked up from (a remote server names none). */
export function asLaunch(config: McpServerConfig): Launch {
  return config.transport === 'stdio'
    ? { transport: 'stdio', command: config.command, args: config.args, env: config.env, ...(config.cwd ? { cwd: config.cwd } : {}) }
    : { transport: config.transport, command: '', args: [], env: {} };
}
