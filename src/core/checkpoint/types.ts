/**
 * Checkpoints: what each step that can change files found before it ran and left after it, so that
 * "restore to before step N" can put every file back (edited, created, deleted, renamed, mode bits,
 * whatever a command or a test run did). Contents live in a content-addressed blob store.
 */
import type { ProgressReport } from '../base/timeSlicer';

/** One path's state: a file (its bytes' hash), a symbolic link (its target's hash), or a folder. */
export interface FileState {
  kind: 'file' | 'link' | 'dir';
  /** sha256 of the bytes (a link: of its target text); '' for a folder. */
  hash: string;
  /** Permission bits (mode & 0o7777). */
  mode: number;
  size: number;
}

/** A path a step changed: null on a side means the path did not exist. */
export interface PathChange {
  path: string;
  before: FileState | null;
  after: FileState | null;
}

/** One step's record, one JSON file under `.patchpilot/checkpoints/runs/<runId>/`. */
export interface StepCheckpoint {
  version: 1;
  runId: string;
  /** The run's model step (what "before step N" counts). */
  step: number;
  /** Order of the call within the run (several calls can share a step). */
  seq: number;
  tool: string;
  /** Epoch ms when the step started. */
  at: number;
  scope: 'paths' | 'workspace';
  changes: PathChange[];
  /** Paths the step changed whose earlier bytes could not be kept (too large): a restore refuses them. */
  uncaptured?: string[];
}

/**
 * What a call may change, declared by its tool (ToolLoopTraits.changesFiles): the paths it names
 * (a patch, a write), the whole workspace (a command, a test run, an MCP tool, a subagent with write
 * tools), or nothing.
 */
export type CheckpointScope = readonly string[] | 'workspace' | 'none';

/** An open capture: `end()` after the step records what changed. */
export interface OpenCapture {
  end(): Promise<StepCheckpoint | undefined>;
}

/** What a step's checkpoint is for, and how a long one reports back (a first checkpoint of a large workspace takes seconds). */
export interface BeginInput {
  runId: string;
  step: number;
  tool: string;
  scope: CheckpointScope;
  /** The run's abort signal: a long preparation stops at its next turn of the event loop. */
  signal?: AbortSignal;
  /** Files prepared of the files to prepare, reported at most twice a second while a capture takes long. */
  progress?: ProgressReport;
  /** Something the user should know about the store (what the size cap dropped). */
  notice?: (message: string) => void;
}

/** The orchestrator's view of the checkpoint store (the CLI and the host hand it one). */
export interface Checkpoints {
  begin(input: BeginInput): Promise<OpenCapture | undefined>;
  /** Notes for the agent about restores since its last turn (taken once). */
  takeNotes(): string[];
}

/**
 * The repository's own object store, for files whose bytes are already in it (git/repositoryObjects.ts):
 * a capture keeps a reference to those instead of a copy.
 */
export interface RepositoryObjects {
  /** Of these paths (sizes on disk, stat taken before the call), those whose bytes are the object the index names, with its id. */
  unchanged(sizes: ReadonlyMap<string, number>, signal?: AbortSignal): Promise<Map<string, string>>;
  /** The objects' bytes; an id the repository does not have is left out. */
  read(ids: readonly string[]): Promise<Map<string, Buffer>>;
}
