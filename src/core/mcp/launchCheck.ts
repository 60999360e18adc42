/**
 * Where a server's launch stands against its approval, computed once per look: the launch's
 * fingerprint, the named workspace files hashed now, the key a yes or a no is about, and why an
 * approval no longer matches. (Each look hashes the files once, not once per question asked of it.)
 */
import type { McpServerConfig } from '../config/mcpServers';
import type { ServerApproval } from './approvals';
import { hash, launchFingerprint } from './fingerprint';
import { describeFileChanges, launchFiles, type FileHasher, type LaunchFiles } from './launchFiles';

export interface LaunchCheck {
  fingerprint: string;
  files: LaunchFiles;
  /** What a yes or a no is about: the launch and its files' contents. */
  key: string;
  approved: boolean;
  /** Why the approval no longer matches; undefined for a new server or a matching one. */
  changeReason?: string;
}

export function checkLaunch(root: string, config: McpServerConfig, approval: ServerApproval | undefined, hasher: FileHasher): LaunchCheck {
  const fingerprint = launchFingerprint(config);
  const files = launchFiles(root, config, hasher);
  const key = hash({ launch: fingerprint, files });
  if (!approval) return { fingerprint, files, key, approved: false };
  if (approval.launch !== fingerprint)
    return { fingerprint, files, key, approved: false, changeReason: 'its command, arguments, environment or URL changed since it was approved' };
  const changes = describeFileChanges(approval.files, files);
  if (!changes.length) return { fingerprint, files, key, approved: true };
  return { fingerprint, files, key, approved: false, changeReason: `a file it runs changed since it was approved: ${changes.join(', ')}` };
}
