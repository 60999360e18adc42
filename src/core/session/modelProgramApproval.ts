/**
 * The model program (`patchpilot.llm.command`) runs on the host, outside the sandbox, once per model
 * request. The setting is the user's own (a workspace cannot set it), but the program it names may
 * live in the workspace (`node ./tools/model.mjs`), where the agent could rewrite it. So, like an MCP
 * server's or a workspace hook's approval (policy/launch, the one module that says what an approval
 * binds), a model program whose launch names workspace files runs only with the user's approval of
 * those files' content, checked right before every start: a changed, added or removed file makes
 * it stale, and the request is refused with a message naming the file and how to approve
 * (`patchpilot model-program approve`). Its files are protected at write time while it is set (a
 * patch asks in every mode; commands cannot change them). A program that names no workspace file
 * needs no approval (nothing of it is the agent's to write).
 *
 * The whole workspace tree is not bound (unlike an unsandboxed MCP server's): the program starts at
 * every model request, so a tree binding would ask again after every edit the agent makes. What it
 * loads by paths no parser follows is the limit written in docs/security.md.
 *
 * Kept in the workspace's state folder (`.patchpilot/model-program-approvals.json`), signed with the
 * per-user key of MCP and hook approvals, so a repository that commits the file approves nothing.
 */
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomicFile';
import { ensureRealFolderChain, ignoreInStateFolder } from '../history/stateFolder';
import { splitCommandLine } from '../llm/localProgram/programFetch';
import { approvalSigningKey, safeEqual } from '../mcp/approvals';
import { bindCode, hash, launchProtectedGlobs, staleReason, type FileHasher, type Launch, type LaunchFiles } from '../policy/launch';
import type { ProtectedGlob } from '../policy/path/protectedPaths';

const FILE_NAME = 'model-program-approvals.json';
const FILE_VERSION = 1;

/** How the user approves the model program's current files. */
export const APPROVE_MODEL_PROGRAM = 'patchpilot model-program approve';

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

type Approved = { files: LaunchFiles; approvedAt: number };

export class ModelProgramApprovals {
  private readonly entries = new Map<string, Approved>();
  private readonly key: Buffer | undefined;
  private readonly file: string;
  /** Why approvals cannot be kept across sessions: they then last for this session only. */
  persistProblem: string | undefined;

  constructor(private readonly o: ModelProgramApprovalsOptions) {
    this.file = path.join(o.root, o.stateDir ?? '.patchpilot', FILE_NAME);
    const signing = approvalSigningKey(o.userStateDir, 'model program approvals');
    this.key = signing.key;
    this.persistProblem = signing.problem;
    this.load();
  }

  /** Where `line` stands against its approval, now (before every start). */
  check(line: string): ModelProgramCheck {
    const { files } = this.bind(line);
    if (Object.keys(files).length === 0) return { files, approved: true };
    const approved = this.entries.get(this.id(line));
    const how = `approve it with \`${APPROVE_MODEL_PROGRAM}\` in ${this.o.root}`;
    if (!approved) return { files, approved: false, reason: `it runs workspace files (${Object.keys(files).join(', ')}) and is not approved yet: ${how}` };
    const stale = staleReason({ files: approved.files }, { launch: '', files });
    return stale ? { files, approved: false, reason: `${stale}: ${how}` } : { files, approved: true };
  }

  /** Approves the program's files as they are now. */
  approve(line: string): LaunchFiles {
    const { files } = this.bind(line);
    this.entries.set(this.id(line), { files, approvedAt: (this.o.now ?? Date.now)() });
    this.save();
    return files;
  }

  /**
   * The named files, but those in `.git` (at any depth) and in the state folder: both are protected
   * paths the agent cannot write unasked (left out of a workspace tree binding for the same reason),
   * and a program may keep its own log there, which changes at every request.
   */
  private bind(line: string): { files: LaunchFiles } {
    const { files } = bindCode({
      root: this.o.root,
      launch: modelProgramLaunch(line),
      outsideSandbox: false,
      ...(this.o.hasher ? { hasher: this.o.hasher } : {}),
    });
    const state = this.o.stateDir ?? '.patchpilot';
    const kept = Object.entries(files).filter(([rel]) => !rel.split('/').includes('.git') && rel !== state && !rel.startsWith(`${state}/`));
    return { files: Object.fromEntries(kept) };
  }

  /** An approval is of this command line (its files are looked up from this process's folder, as it is spawned). */
  private id(line: string): string {
    return hash({ line });
  }

  private sign(id: string, a: Approved): string {
    const files = Object.keys(a.files)
      .sort()
      .map((f) => [f, a.files[f]]);
    return createHmac('sha256', this.key!)
      .update(JSON.stringify([FILE_VERSION, this.o.root, id, files, a.approvedAt]))
      .digest('hex');
  }

  private load(): void {
    let raw: { version?: unknown; programs?: Record<string, Approved & { mac?: unknown }> };
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return; // none yet, or unreadable: nothing is approved
    }
    if (raw?.version !== FILE_VERSION || !raw.programs || typeof raw.programs !== 'object' || !this.key) return;
    for (const [id, e] of Object.entries(raw.programs)) {
      if (!e || typeof e.mac !== 'string' || typeof e.approvedAt !== 'number' || !e.files || typeof e.files !== 'object') continue;
      const entry = { files: e.files, approvedAt: e.approvedAt };
      if (safeEqual(e.mac, this.sign(id, entry))) this.entries.set(id, entry); // planted or edited: not the user's approval
    }
  }

  private save(): void {
    if (!this.key) return;
    const programs = Object.fromEntries([...this.entries].map(([id, a]) => [id, { ...a, mac: this.sign(id, a) }]));
    try {
      ensureRealFolderChain(this.o.root, path.dirname(this.file));
      ignoreInStateFolder(path.dirname(this.file), `${FILE_NAME}*`);
      writeFileAtomic(this.file, `${JSON.stringify({ version: FILE_VERSION, programs }, null, 2)}\n`);
      this.persistProblem = undefined;
    } catch (err) {
      this.persistProblem = `model program approvals are not saved (${(err as Error).message}); they last for this session only`;
    }
  }
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
