import type { PolicyDecision } from '../policy/types';

export type PathAccess = 'read' | 'list' | 'search' | 'create' | 'write';

/** Decides reads and writes of workspace paths (protected paths ask, denyPaths are denied): policy/path's checkPath. */
export interface PathPolicy {
  /** `path` as the model gave it (workspace-relative or absolute). The real path is set whenever it resolves. */
  check(path: string, access: PathAccess): Promise<PolicyDecision & { realPath?: string; relativePath?: string }>;
}

/** Decides a command line (deny > ask > allow): policy/command's createCommandPolicy. */
export type { CommandPolicy } from '../policy/types';
