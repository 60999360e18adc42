/**
 * The one place that says what an approval of a program PatchPilot starts on the user's behalf
 * (a local MCP server, a workspace hook, a test or check command) covers, and when it is stale.
 *
 * Invariant: nothing the agent could have written runs outside the sandbox without a fresh
 * approval. So an approval binds
 *   - what runs: the launch itself (command line, environment; a hook's event and matcher);
 *   - the workspace files the launch names, by content (launchFiles.ts); they are also protected at
 *     write time (launchProtectedGlobs) and checked again right before every start;
 *   - outside the sandbox only: the whole workspace tree (workspaceTree.ts), because code can be
 *     loaded by paths no parser follows. Inside the sandbox the process can change nothing outside
 *     the workspace and no protected path, like any command the agent runs, so its named files are
 *     enough and the agent's ordinary edits do not ask again.
 * A binding made inside the sandbox does not cover a start outside it (the tree was never approved).
 */
import { hash } from './canonicalHash';
import { describeFileChanges, FileHasher, launchFiles, type Launch, type LaunchFiles } from './launchFiles';
import { describeTreeChange, workspaceTree, type WorkspaceTree } from './workspaceTree';

export interface CodeBinding {
  /** Hash of what the launch is (its identity: command line, environment, a hook's event). */
  launch: string;
  /** Named workspace files -> content hash (or `absent`). */
  files: LaunchFiles;
  /** The workspace tree, for a launch that runs outside the sandbox; absent inside it. */
  tree?: WorkspaceTree;
}

export interface BindCodeOptions {
  /** Workspace root (real path). */
  root: string;
  /** Where its named files are looked up from. */
  launch: Launch;
  /** Everything else that makes it this launch (a hook's event and matcher); hashed with the launch. */
  identity?: unknown;
  /** Whether it runs outside the sandbox now: then the whole tree is bound. */
  outsideSandbox: boolean;
  /** The state folder (workspace-relative), left out of the tree like `.git`. */
  stateDir?: string;
  hasher?: FileHasher;
}

export function bindCode(o: BindCodeOptions): CodeBinding {
  const { launch } = o;
  const identity = { launch: { command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd ?? null }, identity: o.identity ?? null };
  return {
    launch: hash(identity),
    files: launchFiles(o.root, launch, o.hasher ?? new FileHasher()),
    ...(o.outsideSandbox ? { tree: workspaceTree(o.root, { exclude: [o.stateDir ?? '.patchpilot'] }) } : {}),
  };
}

/** What a yes or a no is about: two bindings with the same key are the same approval. */
export function bindingKey(b: CodeBinding): string {
  return hash({ launch: b.launch, files: b.files, tree: b.tree ? [b.tree.digest, b.tree.complete] : null });
}

/**
 * Why an approval no longer covers this start (undefined: it does). The launch's identity is the
 * caller's to compare first (its words differ: a server's command, a hook's event). `files`
 * undefined: an approval from before files were bound; every named file counts as new.
 */
export function staleReason(approved: { files: LaunchFiles | undefined; tree?: WorkspaceTree | undefined }, now: CodeBinding): string | undefined {
  const changes = describeFileChanges(approved.files, now.files);
  if (changes.length) return `a file it runs changed since it was approved: ${changes.join(', ')}`;
  if (!now.tree) return undefined;
  if (!approved.tree)
    return 'it runs outside the sandbox now, and its approval did not cover the workspace code it can load (approved while it ran in the sandbox)';
  return describeTreeChange(approved.tree, now.tree);
}

/** Whether a stored tree has the right shape (approvals files are read back from disk). */
export function isWorkspaceTree(v: unknown): v is WorkspaceTree {
  const t = v as WorkspaceTree;
  return (
    !!t &&
    typeof t.digest === 'string' &&
    typeof t.complete === 'boolean' &&
    typeof t.entries === 'number' &&
    !!t.parts &&
    typeof t.parts === 'object' &&
    Object.values(t.parts).every((x) => typeof x === 'string')
  );
}
