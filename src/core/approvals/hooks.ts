/**
 * The workspace hooks the user approved, by fingerprint (event, matcher and command text: a changed
 * hook is a new one and asks again), each with what its approval binds (policy/launch, as for MCP
 * servers): the workspace files its command names, by content, and when hooks run outside the
 * sandbox the whole workspace tree, so a script the agent patched, appended to or whose helper it
 * rewrote is not run again unasked. Kept in the workspace's state folder
 * (`.patchpilot/hook-approvals.json`) and signed like MCP approvals (mcp/approvals.ts): each entry's
 * HMAC is keyed by the per-user secret outside every workspace, so a repository that commits its
 * own approvals file pre-approves nothing. The user's own hooks need no approval.
 */
import type { HookCommand } from '../config/hooks';
import { SignedApprovalFile } from './signedApprovalFile';
import { bindCode, hash, isWorkspaceTree, launchProtectedGlobs, staleReason, type CodeBinding, type FileHasher, type Launch } from '../policy/launch';
import type { ProtectedGlob } from '../policy/path/protectedPaths';

// 2: entries bind the hook's code; version 1 entries (command text only) ask again.
const FILE_VERSION = 2;
const FILE_NAME = 'hook-approvals.json';

/** What an approval covers: a change of any part is another hook. */
export function hookFingerprint(h: Pick<HookCommand, 'event' | 'matcher' | 'command'>): string {
  return hash({ event: h.event, matcher: h.matcher ?? null, command: h.command });
}

/** A hook runs `bash -c command` in the workspace root: the files its words name are its code (the shell line's words, as launchFiles reads a `sh -c` argument). */
export function hookLaunch(h: Pick<HookCommand, 'command'>): Launch {
  return { command: 'bash', args: ['-c', ...h.command.split(/[\s;&|()<>'"`]+/).filter(Boolean)], env: {} };
}

/** The files workspace hooks name, protected at write time like MCP servers' (a patch asks, a command cannot change them). */
export function hookProtectedGlobs(root: string, hooks: readonly HookCommand[]): ProtectedGlob[] {
  return launchProtectedGlobs(
    root,
    hooks
      .filter((h) => h.fromWorkspace)
      .map((h) => ({ launch: hookLaunch(h), why: `the workspace hook "${h.command}" runs it: its content is part of the hook's approval` })),
  );
}

/** A workspace hook never approved (or approved before its code was bound). */
export const NOT_APPROVED = 'not approved yet';

type Approved = { approvedAt: number; code: Pick<CodeBinding, 'files' | 'tree'> };

export interface HookApprovalsOptions {
  /** Workspace root (real path). */
  root: string;
  /** The state folder inside the workspace, workspace-relative (default `.patchpilot`). */
  stateDir?: string;
  /** Per-user folder outside the workspace holding the signing key. */
  userStateDir: string;
  /** Hooks run outside the sandbox here: their approval binds the whole workspace tree. */
  outsideSandbox: boolean;
  hasher?: FileHasher;
  now?: () => number;
}

export class HookApprovals {
  private readonly file: SignedApprovalFile<Approved>;

  constructor(private readonly options: HookApprovalsOptions) {
    this.file = new SignedApprovalFile<Approved>({
      ...options,
      fileName: FILE_NAME,
      version: FILE_VERSION,
      collection: 'hooks',
      what: 'hook approvals',
      parse: (e) => (typeof e.approvedAt === 'number' && isCode(e.code) ? { approvedAt: e.approvedAt, code: e.code } : undefined),
      signed: (fingerprint, entry) => {
        // The tree's digest is what is compared; its parts only say where a change is.
        const code = hash({ files: entry.code.files, tree: entry.code.tree ? [entry.code.tree.digest, entry.code.tree.complete] : null });
        return [FILE_VERSION, 'hook', options.root, fingerprint, entry.approvedAt, code];
      },
    });
  }

  /** Why approvals last for this session only (no key, no writable state folder). */
  get persistProblem(): string | undefined {
    return this.file.persistProblem;
  }

  /** A user hook always; a workspace hook when this exact hook was approved and its code is as approved. */
  isApproved(h: HookCommand): boolean {
    return !h.fromWorkspace || this.staleReason(h) === undefined;
  }

  /** Why a workspace hook needs (another) approval; undefined when it has a current one. */
  staleReason(h: HookCommand): string | undefined {
    if (!h.fromWorkspace) return undefined;
    const entry = this.file.get(hookFingerprint(h));
    if (!entry) return NOT_APPROVED;
    return staleReason(entry.code, this.bind(h));
  }

  approve(h: HookCommand): void {
    const { files, tree } = this.bind(h);
    this.file.set(hookFingerprint(h), { approvedAt: (this.options.now ?? Date.now)(), code: { files, ...(tree ? { tree } : {}) } });
  }

  private bind(h: HookCommand): CodeBinding {
    const o = this.options;
    return bindCode({
      root: o.root,
      launch: hookLaunch(h),
      outsideSandbox: o.outsideSandbox,
      stateDir: o.stateDir ?? '.patchpilot',
      ...(o.hasher ? { hasher: o.hasher } : {}),
    });
  }
}

function isCode(v: unknown): v is Approved['code'] {
  const c = v as Approved['code'];
  return (
    !!c &&
    typeof c.files === 'object' &&
    c.files !== null &&
    Object.values(c.files).every((x) => typeof x === 'string') &&
    (c.tree === undefined || isWorkspaceTree(c.tree))
  );
}
