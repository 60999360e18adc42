/**
 * PatchPilot's public API for other extensions and scripts: what `activate()` returns under `api`,
 * and the events an agent run tells. Zero imports, so another extension can copy this file as is
 * (docs/api.md). Every id is the id of the row in the workspace's history database
 * (`patchpilot history show <runId> --json`), so a consumer can look up the rest there.
 */

/** Bumped when a field is removed or changes meaning; new optional fields keep the version. */
export const PATCHPILOT_API_VERSION = 1;

/** Shaped like `vscode.Event`: subscribe with a listener, dispose the result to unsubscribe. */
export type PatchPilotEvent<T> = (listener: (e: T) => void) => { dispose(): unknown };

/** Every payload names the run it belongs to: its history id (null when the history is not recorded, e.g. it could not be opened). */
export interface RunScoped {
  runId: string | null;
}

/** Events inside a run name its step too: the number the history, the chat and `patchpilot restore --before-step` use. */
export interface StepScoped extends RunScoped {
  /** Absent when the event came outside a step (the user's own undo after the run). */
  step?: number;
}

export interface RunStartedEvent extends RunScoped {
  goal: string;
  mode: string;
  model: string;
}

export interface PatchHunkState {
  /** `${path}#${n}`, numbered from 1 as the history and the chat number them. */
  id: string;
  path: string;
  status: 'applied' | 'would-apply' | 'refused' | 'rejected';
  reason?: string;
}

export interface PatchProposedEvent extends StepScoped {
  /** The patch's row in the history (`patches.id`); absent when the run is not recorded. */
  patchId?: string;
  /** Whether the engine could place every hunk (false: it is refused, `error` says why). */
  ok: boolean;
  error?: string;
  hunks: PatchHunkState[];
  /** What it would change, as a unified diff. */
  diff?: string;
}

export interface PatchAppliedEvent extends StepScoped {
  patchId?: string;
  files: string[];
  /** The hunks that went in, of `total` proposed. */
  hunks: PatchHunkState[];
  total: number;
  /** The user's own edit of the patch went in instead. */
  edited: boolean;
}

export interface PatchRefusedEvent extends StepScoped {
  patchId?: string;
  files: string[];
  /** `rejected`: by the user; `refused`: by the engine, the path policy or plan mode; `reason` says which and why. */
  hunks: { id: string; state: 'rejected' | 'refused'; reason?: string }[];
}

export interface PatchUndoneEvent extends RunScoped {
  patchId?: string;
  files: string[];
}

export interface TestsFinishedEvent extends StepScoped {
  command: string;
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  summary: string;
}

export interface RunFinishedEvent extends RunScoped {
  /** finished | limit | failed | blocked | cancelled | interrupted | stopped (docs/agent.md). */
  status: string;
  reason: string;
  steps: number;
  /** The tests after the last file change; a `finished` run whose tests failed is not a success. */
  tests?: 'passed' | 'failed' | 'known-failures' | 'not-run';
  summary?: string;
}

export interface PatchPilotApiEvents {
  onDidStartRun: PatchPilotEvent<RunStartedEvent>;
  onDidProposePatch: PatchPilotEvent<PatchProposedEvent>;
  onDidApplyPatch: PatchPilotEvent<PatchAppliedEvent>;
  onDidRefusePatch: PatchPilotEvent<PatchRefusedEvent>;
  onDidUndoPatch: PatchPilotEvent<PatchUndoneEvent>;
  onDidFinishTests: PatchPilotEvent<TestsFinishedEvent>;
  onDidFinishRun: PatchPilotEvent<RunFinishedEvent>;
}

/** `vscode.extensions.getExtension('patchpilot.patchpilot').activate()` resolves to an object with this under `api`. */
export interface PatchPilotPublicApi {
  version: number;
  events: PatchPilotApiEvents;
}
