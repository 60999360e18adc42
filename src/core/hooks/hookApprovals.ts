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
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import type { HookCommand } from '../config/hooks';
import { writeFileAtomic } from '../fs/atomicFile';
import { ensureRealFolderChain, ignoreInStateFolder } from '../history/stateFolder';
import { approvalSigningKey, safeEqual } from '../mcp/approvals';
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
  private readonly approved = new Map<string, Approved>();
  private readonly key: Buffer | undefined;
  private readonly file: string;
  /** Why approvals last for this session only (no key, no writable state folder). */
  persistProblem: string | undefined;

  constructor(private readonly options: HookApprovalsOptions) {
    this.file = path.join(options.root, options.stateDir ?? '.patchpilot', FILE_NAME);
    const signing = approvalSigningKey(options.userStateDir, 'hook approvals');
    this.key = signing.key;
    this.persistProblem = signing.problem;
    this.load();
  }

  /** A user hook always; a workspace hook when this exact hook was approved and its code is as approved. */
  isApproved(h: HookCommand): boolean {
    return !h.fromWorkspace || this.staleReason(h) === undefined;
  }

  /** Why a workspace hook needs (another) approval; undefined when it has a current one. */
  staleReason(h: HookCommand): string | undefined {
    if (!h.fromWorkspace) return undefined;
    const entry = this.approved.get(hookFingerprint(h));
    if (!entry) return NOT_APPROVED;
    return staleReason(entry.code, this.bind(h));
  }

  approve(h: HookCommand): void {
    const { files, tree } = this.bind(h);
    this.approved.set(hookFingerprint(h), { approvedAt: (this.options.now ?? Date.now)(), code: { files, ...(tree ? { tree } : {}) } });
    this.save();
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

  private load(): void {
    if (!this.key) return;
    let raw: { version?: unknown; hooks?: Record<string, { approvedAt?: unknown; mac?: unknown; code?: unknown }> };
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return; // none yet, or unreadable: nothing is approved
    }
    if (raw?.version !== FILE_VERSION || !raw.hooks || typeof raw.hooks !== 'object') return;
    for (const [fp, e] of Object.entries(raw.hooks)) {
      if (typeof e?.approvedAt !== 'number' || typeof e.mac !== 'string' || !isCode(e.code)) continue;
      const entry = { approvedAt: e.approvedAt, code: e.code };
      if (safeEqual(e.mac, this.sign(fp, entry))) this.approved.set(fp, entry); // else planted or edited
    }
  }

  private save(): void {
    if (!this.key) return;
    const hooks: Record<string, Approved & { mac: string }> = {};
    for (const [fp, entry] of this.approved) hooks[fp] = { ...entry, mac: this.sign(fp, entry) };
    try {
      ensureRealFolderChain(this.options.root, path.dirname(this.file));
      // Signed for this user only: of no use to anyone in the repository.
      ignoreInStateFolder(path.dirname(this.file), `${FILE_NAME}*`);
      writeFileAtomic(this.file, `${JSON.stringify({ version: FILE_VERSION, hooks }, null, 2)}\n`);
      this.persistProblem = undefined;
    } catch (err) {
      this.persistProblem = `hook approvals are not saved (${(err as Error).message}); they last for this session only`;
    }
  }

  private sign(fingerprint: string, entry: Approved): string {
    // The tree's digest is what is compared; its parts only say where a change is.
    const code = hash({ files: entry.code.files, tree: entry.code.tree ? [entry.code.tree.digest, entry.code.tree.complete] : null });
    return createHmac('sha256', this.key!)
      .update(JSON.stringify([FILE_VERSION, 'hook', this.options.root, fingerprint, entry.approvedAt, code]))
      .digest('hex');
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
