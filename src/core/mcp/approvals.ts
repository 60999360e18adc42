/**
 * The MCP servers the user approved in this workspace: per server, the launch fingerprint, the
 * content hashes of the workspace files the launch names (launchFiles.ts) and each tool's
 * fingerprint (fingerprint.ts). Kept in the workspace's state folder
 * (`.patchpilot/mcp-approvals.json`, written atomically through real folders only), and signed: each
 * entry carries an HMAC keyed by a per-user secret kept outside every workspace (userStateDir). A
 * repository that commits its own approvals file (to pre-approve the server it also configures) or
 * edits an entry gets entries that do not verify, so its servers are asked about like new ones.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomicFile';
import { ensureRealFolderChain, ignoreInStateFolder } from '../history/stateFolder';
import { isWorkspaceTree, type WorkspaceTree } from '../policy/launch';

export interface ServerApproval {
  launch: string;
  /**
   * Workspace files the launch names -> content hash (or `absent`), as approved. Undefined in
   * entries written before files were part of an approval: those ask again, naming the files.
   */
  files?: Record<string, string>;
  /** The workspace tree it was approved with, when it was approved to run outside the sandbox (policy/launch). */
  tree?: WorkspaceTree;
  /** Tool name -> fingerprint of the definition the user approved; null until the server was first reached. */
  tools: Record<string, string> | null;
  approvedAt: number;
}

interface StoredApproval extends ServerApproval {
  mac: string;
}

const FILE_VERSION = 1;
const KEY_FILE = 'mcp-approval.key';

export interface McpApprovalsOptions {
  /** Workspace root (real path). */
  root: string;
  /** The state folder inside the workspace, workspace-relative (default `.patchpilot`). */
  stateDir?: string;
  /** Per-user folder outside the workspace holding the signing key. */
  userStateDir: string;
  now?: () => number;
}

export class McpApprovals {
  private entries = new Map<string, ServerApproval>();
  private key: Buffer | undefined;
  /** Why approvals cannot be kept across sessions (no key, no writable state folder): they live in memory only. */
  persistProblem: string | undefined;
  private readonly file: string;

  constructor(private readonly options: McpApprovalsOptions) {
    this.file = path.join(options.root, options.stateDir ?? '.patchpilot', 'mcp-approvals.json');
    this.load();
  }

  get(server: string): ServerApproval | undefined {
    return this.entries.get(server);
  }

  /** Records (and saves) what the user approved; replaces the server's earlier approval. */
  approve(server: string, approval: Omit<ServerApproval, 'approvedAt'>): void {
    this.entries.set(server, {
      ...approval,
      ...(approval.files ? { files: { ...approval.files } } : {}),
      ...(approval.tree ? { tree: approval.tree } : {}),
      tools: approval.tools && { ...approval.tools },
      approvedAt: (this.options.now ?? Date.now)(),
    });
    this.save();
  }

  /**
   * Records the tool definitions the user approved, keeping the rest of the server's approval as it
   * is (its launch, files and tree): a tool review is no launch approval and must not narrow or widen one.
   */
  recordTools(server: string, tools: Record<string, string>): void {
    const earlier = this.entries.get(server);
    if (!earlier) throw new Error(`MCP server "${server}" has no approval to record tools in`);
    const { approvedAt: _approvedAt, ...launch } = earlier;
    this.approve(server, { ...launch, tools });
  }

  forget(server: string): void {
    if (this.entries.delete(server)) this.save();
  }

  private load(): void {
    const signing = approvalSigningKey(this.options.userStateDir);
    this.key = signing.key;
    if (signing.problem) this.persistProblem = signing.problem;
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return; // none yet, or unreadable: nothing is approved
    }
    const servers = (raw as { version?: unknown; servers?: unknown })?.servers;
    if ((raw as { version?: unknown }).version !== FILE_VERSION || !servers || typeof servers !== 'object') return;
    for (const [name, entry] of Object.entries(servers as Record<string, StoredApproval>)) {
      if (!isStored(entry) || !this.key) continue;
      if (!safeEqual(entry.mac, this.sign(name, entry))) continue; // planted or edited: not the user's approval
      this.entries.set(name, {
        launch: entry.launch,
        ...(entry.files ? { files: { ...entry.files } } : {}),
        ...(entry.tree ? { tree: entry.tree } : {}),
        tools: entry.tools && { ...entry.tools },
        approvedAt: entry.approvedAt,
      });
    }
  }

  private save(): void {
    if (!this.key) return;
    const servers: Record<string, StoredApproval> = {};
    for (const [name, a] of this.entries) servers[name] = { ...a, mac: this.sign(name, a) };
    try {
      ensureRealFolderChain(this.options.root, path.dirname(this.file));
      // Signed for this user only: of no use to anyone in the repository.
      ignoreInStateFolder(path.dirname(this.file), 'mcp-approvals.json*');
      writeFileAtomic(this.file, `${JSON.stringify({ version: FILE_VERSION, servers }, null, 2)}\n`);
      this.persistProblem = undefined;
    } catch (err) {
      this.persistProblem = `MCP approvals are not saved (${(err as Error).message}); they last for this session only`;
    }
  }

  private sign(name: string, a: ServerApproval): string {
    const tools =
      a.tools &&
      Object.keys(a.tools)
        .sort()
        .map((t) => [t, a.tools![t]]);
    const signed: unknown[] = [FILE_VERSION, this.options.root, name, a.launch, tools, a.approvedAt];
    // Entries from before files were approved verify as they were signed (and then ask again, as their files are unknown).
    if (a.files)
      signed.push(
        Object.keys(a.files)
          .sort()
          .map((f) => [f, a.files![f]]),
      );
    // The tree's digest is what is compared; its parts only say where a change is.
    if (a.tree) signed.push(['tree', a.tree.digest, a.tree.complete]);
    return createHmac('sha256', this.key!).update(JSON.stringify(signed)).digest('hex');
  }
}

/**
 * The per-user key that signs approvals (MCP servers, workspace hooks), kept outside every workspace;
 * created on first use. `problem`: why approvals cannot be kept across sessions (they then live in memory).
 */
export function approvalSigningKey(userStateDir: string, what = 'MCP approvals'): { key?: Buffer; problem?: string } {
  const file = path.join(userStateDir, KEY_FILE);
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(text)) return { key: Buffer.from(text, 'hex') };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      return { problem: `${what} are not saved (cannot read ${file}: ${(err as Error).message}); they last for this session only` };
  }
  try {
    fs.mkdirSync(userStateDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    // wx: two processes racing to create it agree on the first one written.
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return { key };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return approvalSigningKey(userStateDir, what);
    return { problem: `${what} are not saved (cannot create ${file}: ${(err as Error).message}); they last for this session only` };
  }
}

function isStored(e: unknown): e is StoredApproval {
  const x = e as StoredApproval;
  return (
    !!x &&
    typeof x.launch === 'string' &&
    typeof x.mac === 'string' &&
    typeof x.approvedAt === 'number' &&
    (x.files === undefined || isStringRecord(x.files)) &&
    (x.tree === undefined || isWorkspaceTree(x.tree)) &&
    (x.tools === null || isStringRecord(x.tools))
  );
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
