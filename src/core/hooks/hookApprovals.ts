/**
 * The workspace hooks the user approved, by fingerprint (event, matcher and command text: a changed
 * hook is a new one and asks again). Kept in the workspace's state folder
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
import { hash } from '../mcp/fingerprint';
import { approvalSigningKey, safeEqual } from '../mcp/approvals';

const FILE_VERSION = 1;
const FILE_NAME = 'hook-approvals.json';

/** What an approval covers: a change of any part is another hook. */
export function hookFingerprint(h: Pick<HookCommand, 'event' | 'matcher' | 'command'>): string {
  return hash({ event: h.event, matcher: h.matcher ?? null, command: h.command });
}

export interface HookApprovalsOptions {
  /** Workspace root (real path). */
  root: string;
  /** The state folder inside the workspace, workspace-relative (default `.patchpilot`). */
  stateDir?: string;
  /** Per-user folder outside the workspace holding the signing key. */
  userStateDir: string;
  now?: () => number;
}

export class HookApprovals {
  private readonly approved = new Map<string, number>();
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

  /** A user hook always; a workspace hook when this exact hook was approved. */
  isApproved(h: HookCommand): boolean {
    return !h.fromWorkspace || this.approved.has(hookFingerprint(h));
  }

  approve(h: HookCommand): void {
    this.approved.set(hookFingerprint(h), (this.options.now ?? Date.now)());
    this.save();
  }

  private load(): void {
    if (!this.key) return;
    let raw: { version?: unknown; hooks?: Record<string, { approvedAt?: unknown; mac?: unknown }> };
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return; // none yet, or unreadable: nothing is approved
    }
    if (raw?.version !== FILE_VERSION || !raw.hooks || typeof raw.hooks !== 'object') return;
    for (const [fp, e] of Object.entries(raw.hooks)) {
      if (typeof e?.approvedAt !== 'number' || typeof e.mac !== 'string') continue;
      if (safeEqual(e.mac, this.sign(fp, e.approvedAt))) this.approved.set(fp, e.approvedAt); // else planted or edited
    }
  }

  private save(): void {
    if (!this.key) return;
    const hooks: Record<string, { approvedAt: number; mac: string }> = {};
    for (const [fp, at] of this.approved) hooks[fp] = { approvedAt: at, mac: this.sign(fp, at) };
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

  private sign(fingerprint: string, approvedAt: number): string {
    return createHmac('sha256', this.key!)
      .update(JSON.stringify([FILE_VERSION, 'hook', this.options.root, fingerprint, approvedAt]))
      .digest('hex');
  }
}
