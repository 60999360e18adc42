/**
 * The model program (`patchpilot.llm.command`) runs on the host, outside the sandbox, once per model
 * request. The setting is the user's own (a workspace cannot set it), but the program it names may
 * live in the workspace (`node ./tools/model.mjs`), where the agent could rewrite it. So, like an MCP
 * server's or a workspace hook's approval (policy/launch, the one module that says what an approval
 * binds), a model program whose launch names workspace files runs only with the user's approval of
 * everything it can load from the workspace, checked right before every start: the named files by
 * content, and, since it always runs outside the sandbox, the whole workspace tree (a computed
 * `import()`, `createRequire`, a plugin folder, `node_modules`, a `.pth` file: no parser lists those
 * loads). Any change makes it stale, the agent's edits included, and the request is refused with a
 * message naming what changed and how to approve (`patchpilot model-program approve`, or VS Code's
 * "PatchPilot: Approve Model Program…"). Its named files are protected at write time while it is set
 * (a patch asks in every mode; commands cannot change them). A program that names no workspace file
 * needs no approval (nothing of it is the agent's to write): keep it outside the workspace.
 *
 * Kept in the workspace's state folder (`.patchpilot/model-program-approvals.json`), signed with the
 * per-user key of MCP and hook approvals, so a repository that commits the file approves nothing.
 */
import { SignedApprovalFile } from './signedApprovalFile';
import { splitCommandLine } from '../llm/localProgram/programFetch';
import {
  bindCode,
  hash,
  isWorkspaceTree,
  launchProtectedGlobs,
  staleReason,
  type CodeBinding,
  FileHasher,
  type Launch,
  type LaunchFiles,
  type WorkspaceTree,
} from '../policy/launch';
import type { ProtectedGlob } from '../policy/path/protectedPaths';

const FILE_NAME = 'model-program-approvals.json';
/** 2: approvals bind the workspace tree (version 1 bound the named files only: read as not approved). */
const FILE_VERSION = 2;

/** How the user approves the model program's current files (the CLI; VS Code's command below). */
export const APPROVE_MODEL_PROGRAM = 'patchpilot model-program approve';
/** VS Code's command that writes the same approvals (src/host/vscode/commands/approveModelProgram.ts). */
export const APPROVE_MODEL_PROGRAM_VSCODE = 'PatchPilot: Approve Model Program…';

/** The launch of a command line as the program is spawned (no shell; relative paths from this process's folder). */
export function modelProgramLaunch(line: string, cwd = process.cwd()): Launch {
  const [command = '', ...args] = splitCommandLine(line);
  return { command, args, env: {}, cwd };
}

/** The model program's workspace files, protected at write time while it is set. */
export function modelProgramProtectedGlobs(root: string, line: string | undefined): ProtectedGlob[] {
  if (!line) return [];
  return launchProtectedGlobs(root, [{ launch: modelProgramLaunch(line), why: "the model program runs it: its content is part of the program's approval" }]);
}

export interface ModelProgramCheck {
  /** The workspace files the launch names, by content, now. */
  files: LaunchFiles;
  /** The workspace tree it can load from, now (absent when it names no workspace file: nothing to bind). */
  tree?: WorkspaceTree;
  /** Whether it may start: it names no workspace file, or they are as approved. */
  approved: boolean;
  /** Why not (a new program, a changed file), with how to approve. */
  reason?: string;
}

export interface ModelProgramApprovalsOptions {
  /** Workspace root (real path). */
  root: string;
  /** The state folder inside the workspace, workspace-relative (default `.patchpilot`). */
  stateDir?: string;
  /** Per-user folder outside the workspace holding the signing key. */
  userStateDir: string;
  hasher?: FileHasher;
  now?: () => number;
}

type Approved = { files: LaunchFiles; tree: WorkspaceTree; approvedAt: number };

export class ModelProgramApprovals {
  private readonly file: SignedApprovalFile<Approved>;

  constructor(private readonly o: ModelProgramApprovalsOptions) {
    this.file = new SignedApprovalFile<Approved>({
      ...o,
      fileName: FILE_NAME,
      version: FILE_VERSION,
      collection: 'programs',
      what: 'model program approvals',
      parse: (e) =>
        typeof e.approvedAt === 'number' && !!e.files && typeof e.files === 'object' && isWorkspaceTree(e.tree)
          ? { files: e.files as LaunchFiles, tree: e.tree, approvedAt: e.approvedAt }
          : undefined,
      signed: (id, a) => {
        const files = Object.keys(a.files)
          .sort()
          .map((f) => [f, a.files[f]]);
        // The tree's digest is what is compared; its parts only say where a change is.
        return [FILE_VERSION, o.root, id, files, a.tree.digest, a.tree.complete, a.approvedAt];
      },
      // Entries signed with another user key (the other host's: the CLI and VS Code keep their keys apart) stay in the file for their owner.
      keepUnverified: true,
    });
  }

  /** Why approvals cannot be kept across sessions: they then last for this session only. */
  get persistProblem(): string | undefined {
    return this.file.persistProblem;
  }

  /** Where `line` stands against its approval, now (before every start). */
  check(line: string): ModelProgramCheck {
    const binding = this.bind(line);
    const { files, tree } = binding;
    if (!tree) return { files, approved: true };
    const approved = this.file.get(this.id(line));
    const how = `approve it with \`${APPROVE_MODEL_PROGRAM}\` in ${this.o.root} (in VS Code: ${APPROVE_MODEL_PROGRAM_VSCODE})`;
    if (!approved)
      return { files, tree, approved: false, reason: `it runs workspace files (${Object.keys(files).join(', ')}) and is not approved yet: ${how}` };
    const stale = staleReason({ files: approved.files, tree: approved.tree }, binding);
    return stale ? { files, tree, approved: false, reason: `${stale}: ${how}` } : { files, tree, approved: true };
  }

  /** Approves the program's files and the workspace it can load from as they are now; what was approved. */
  approve(line: string): ModelProgramCheck {
    const { files, tree } = this.bind(line);
    if (!tree) return { files, approved: true };
    this.file.set(this.id(line), { files, tree, approvedAt: (this.o.now ?? Date.now)() });
    return { files, tree, approved: true };
  }

  /**
   * The named files, but those in `.git` (at any depth) and in the state folder: both are protected
   * paths the agent cannot write unasked (left out of a workspace tree binding for the same reason),
   * and a program may keep its own log there, which changes at every request. A program that names
   * a workspace file runs outside the sandbox at every request: the whole tree is bound (policy/launch).
   */
  private bind(line: string): Pick<CodeBinding, 'launch' | 'files' | 'tree'> {
    const state = this.o.stateDir ?? '.patchpilot';
    // One hasher for both looks: the named files are read once.
    const common = { root: this.o.root, launch: modelProgramLaunch(line), stateDir: state, hasher: this.o.hasher ?? new FileHasher() };
    const named = bindCode({ ...common, outsideSandbox: false });
    const kept = Object.entries(named.files).filter(([rel]) => !rel.split('/').includes('.git') && rel !== state && !rel.startsWith(`${state}/`));
    const files = Object.fromEntries(kept);
    if (kept.length === 0) return { launch: named.launch, files };
    const { tree } = bindCode({ ...common, outsideSandbox: true });
    return { launch: named.launch, files, ...(tree ? { tree } : {}) };
  }

  /** An approval is of this command line (its files are looked up from this process's folder, as it is spawned), under this user key. */
  private id(line: string): string {
    // Tagged by the user key: the CLI's and VS Code's approvals of one line live side by side in the file.
    return `${hash({ line })}.${this.file.keyTag('model-program-approvals')}`;
  }
}

/** What an approval of the model program covers, in words (the CLI's status and approve, VS Code's approval dialog). */
export function describeModelProgramBinding(check: Pick<ModelProgramCheck, 'files' | 'tree'>, stateDir = '.patchpilot'): string {
  if (!check.tree) return 'it runs no workspace file: it needs no approval';
  const tree = check.tree.complete
    ? `${check.tree.entries.toLocaleString('en-US')} entries, all of the workspace but .git and ${stateDir}`
    : `over ${check.tree.entries.toLocaleString('en-US')} entries: too many to fingerprint, so every start asks`;
  return `workspace files it runs: ${Object.keys(check.files).join(', ')}\nand everything it can load from the workspace (${tree}); any change there, the agent's edits included, asks again`;
}

/**
 * The check a model program's starts pass (createAgent): the approvals of this workspace, read once;
 * undefined when no program is set or the agent only reads (then nothing of it is written).
 */
export function modelProgramPreflight(o: ModelProgramApprovalsOptions & { line: string | undefined }): (() => string | undefined) | undefined {
  if (!o.line) return undefined;
  const approvals = new ModelProgramApprovals(o);
  const line = o.line;
  return () => approvals.check(line).reason;
}
