/**
 * The MCP servers the user approved in this workspace: per server, the launch fingerprint, the
 * content hashes of the workspace files the launch names (launchFiles.ts) and each tool's
 * fingerprint (fingerprint.ts). Kept in the workspace's state folder
 * (`.patchpilot/mcp-approvals.json`, written atomically through real folders only), and signed: each
 * entry carries an HMAC keyed by a per-user secret kept outside every workspace (userStateDir). A
 * repository that commits its own approvals file (to pre-approve the server it also configures) or
 * edits an entry gets entries that do not verify, so its servers are asked about like new ones.
 */
import { SignedApprovalFile } from './signedApprovalFile';
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

const FILE_VERSION = 1;

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
  private readonly file: SignedApprovalFile<ServerApproval>;

  constructor(private readonly options: McpApprovalsOptions) {
    this.file = new SignedApprovalFile<ServerApproval>({
      ...options,
      fileName: 'mcp-approvals.json',
      version: FILE_VERSION,
      collection: 'servers',
      what: 'MCP approvals',
      parse: (e) => (isStored(e) ? copy(e) : undefined),
      signed: (name, a) => signedParts(options.root, name, a),
    });
  }

  /** Why approvals cannot be kept across sessions (no key, no writable state folder): they live in memory only. */
  get persistProblem(): string | undefined {
    return this.file.persistProblem;
  }

  get(server: string): ServerApproval | undefined {
    return this.file.get(server);
  }

  /** Records (and saves) what the user approved; replaces the server's earlier approval. */
  approve(server: string, approval: Omit<ServerApproval, 'approvedAt'>): void {
    this.file.set(server, copy({ ...approval, approvedAt: (this.options.now ?? Date.now)() }));
  }

  /**
   * Records the tool definitions the user approved, keeping the rest of the server's approval as it
   * is (its launch, files and tree): a tool review is no launch approval and must not narrow or widen one.
   */
  recordTools(server: string, tools: Record<string, string>): void {
    const earlier = this.file.get(server);
    if (!earlier) throw new Error(`MCP server "${server}" has no approval to record tools in`);
    const { approvedAt: _approvedAt, ...launch } = earlier;
    this.approve(server, { ...launch, tools });
  }

  forget(server: string): void {
    this.file.delete(server);
  }
}

function copy(a: ServerApproval): ServerApproval {
  return {
    launch: a.launch,
    ...(a.files ? { files: { ...a.files } } : {}),
    ...(a.tree ? { tree: a.tree } : {}),
    tools: a.tools && { ...a.tools },
    approvedAt: a.approvedAt,
  };
}

function signedParts(root: string, name: string, a: ServerApproval): unknown[] {
  const tools =
    a.tools &&
    Object.keys(a.tools)
      .sort()
      .map((t) => [t, a.tools![t]]);
  const signed: unknown[] = [FILE_VERSION, root, name, a.launch, tools, a.approvedAt];
  // Entries from before files were approved verify as they were signed (and then ask again, as their files are unknown).
  if (a.files)
    signed.push(
      Object.keys(a.files)
        .sort()
        .map((f) => [f, a.files![f]]),
    );
  // The tree's digest is what is compared; its parts only say where a change is.
  if (a.tree) signed.push(['tree', a.tree.digest, a.tree.complete]);
  return signed;
}

function isStored(e: unknown): e is ServerApproval {
  const x = e as ServerApproval;
  return (
    !!x &&
    typeof x.launch === 'string' &&
    typeof x.approvedAt === 'number' &&
    (x.files === undefined || isStringRecord(x.files)) &&
    (x.tree === undefined || isWorkspaceTree(x.tree)) &&
    (x.tools === null || isStringRecord(x.tools))
  );
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}
