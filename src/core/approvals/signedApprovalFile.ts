/**
 * The one mechanism behind every approval PatchPilot keeps (MCP servers, workspace hooks, the model
 * program): a JSON file in the workspace's state folder, `{ version, <collection>: { id: entry } }`,
 * each entry signed with an HMAC of the per-user key (signingKey.ts). An entry whose MAC does not
 * verify (planted, edited, or signed by another user key) is not an approval. Written atomically
 * through real folders only, ignored by git; when it cannot be written (no key, no writable state
 * folder), approvals last for this session only and `persistProblem` says why.
 */
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomicFile';
import { ensureRealFolderChain, ignoreInStateFolder } from '../history/stateFolder';
import { approvalSigningKey, safeEqual } from './signingKey';

export interface SignedApprovalFileOptions<E> {
  /** Workspace root (real path). */
  root: string;
  /** The state folder inside the workspace, workspace-relative (default `.patchpilot`). */
  stateDir?: string;
  /** Per-user folder outside the workspace holding the signing key. */
  userStateDir: string;
  fileName: string;
  /** A file of another version is read as no approvals (its entries ask again). */
  version: number;
  /** The key of the entries' object in the file (`servers`, `hooks`, `programs`). */
  collection: string;
  /** What the approvals are, for messages ("hook approvals"). */
  what: string;
  /** A stored entry (its `mac` aside) as an entry, or undefined when malformed. */
  parse(stored: Record<string, unknown>): E | undefined;
  /** What the MAC covers for an entry: every part whose change must ask again. */
  signed(id: string, entry: E): unknown[];
  /** Keep entries that do not verify in the file when saving (the other host's, under its own key). */
  keepUnverified?: boolean;
}

export class SignedApprovalFile<E extends object> {
  readonly entries = new Map<string, E>();
  private readonly unverified = new Map<string, unknown>();
  private readonly key: Buffer | undefined;
  private readonly file: string;
  /** Why approvals last for this session only (no key, no writable state folder). */
  persistProblem: string | undefined;

  constructor(private readonly o: SignedApprovalFileOptions<E>) {
    this.file = path.join(o.root, o.stateDir ?? '.patchpilot', o.fileName);
    const signing = approvalSigningKey(o.userStateDir, o.what);
    this.key = signing.key;
    this.persistProblem = signing.problem;
    this.load();
  }

  /** A short tag of this user key (`unsigned` without one), for ids that must differ per key. */
  keyTag(label: string): string {
    return this.key ? createHmac('sha256', this.key).update(label).digest('hex').slice(0, 12) : 'unsigned';
  }

  get(id: string): E | undefined {
    return this.entries.get(id);
  }

  /** Records an entry and saves the file. */
  set(id: string, entry: E): void {
    this.entries.set(id, entry);
    this.save();
  }

  delete(id: string): void {
    if (this.entries.delete(id)) this.save();
  }

  private mac(id: string, entry: E): string {
    return createHmac('sha256', this.key!)
      .update(JSON.stringify(this.o.signed(id, entry)))
      .digest('hex');
  }

  private load(): void {
    if (!this.key) return;
    let raw: { version?: unknown } & Record<string, unknown>;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return; // none yet, or unreadable: nothing is approved
    }
    const stored = raw?.[this.o.collection];
    if (raw?.version !== this.o.version || !stored || typeof stored !== 'object') return;
    for (const [id, e] of Object.entries(stored as Record<string, unknown>)) {
      const mac = (e as { mac?: unknown } | null)?.mac;
      if (typeof mac !== 'string' || typeof e !== 'object') continue;
      const entry = this.o.parse(e as Record<string, unknown>);
      if (!entry) continue;
      if (safeEqual(mac, this.mac(id, entry))) this.entries.set(id, entry);
      else if (this.o.keepUnverified) this.unverified.set(id, e);
    }
  }

  private save(): void {
    if (!this.key) return;
    const signed = [...this.entries].map(([id, e]) => [id, { ...e, mac: this.mac(id, e) }] as const);
    const entries = Object.fromEntries([...this.unverified, ...signed]);
    const folder = path.dirname(this.file);
    try {
      ensureRealFolderChain(this.o.root, folder);
      // Signed for this user only: of no use to anyone in the repository.
      ignoreInStateFolder(folder, `${this.o.fileName}*`);
      writeFileAtomic(this.file, `${JSON.stringify({ version: this.o.version, [this.o.collection]: entries }, null, 2)}\n`);
      this.persistProblem = undefined;
    } catch (err) {
      this.persistProblem = `${this.o.what} are not saved (${(err as Error).message}); they last for this session only`;
    }
  }
}
