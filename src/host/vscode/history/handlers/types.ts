import type * as vscode from 'vscode';
import type { HistoryToHost, HistoryToHostType } from '../../../../protocol/history';
import type { HistoryService } from '../historyService';
import type { PatchActions } from '../patchActions';
import type { RunOperations } from '../runOperations';
import type { CheckpointRestores } from '../../checkpoints/checkpointRestores';
import type { PatchStates } from '../../patches/patchStates';

export interface HistoryHandlerContext {
  service: HistoryService;
  patches: PatchActions;
  runs: RunOperations;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** Restore to before a step (the chat's restore); refused while the chat's run works. */
  restores?: CheckpointRestores;
  running?(): boolean;
  /** The window's patch states: a run read here seeds the patches they do not know (after a reload), and shows each patch as they have it now. */
  states?: Pick<PatchStates, 'knowRun' | 'get'>;
}

/** One small handler per request type. */
export type HistoryHandler<K extends HistoryToHostType> = (
  payload: HistoryToHost[K][0],
  ctx: HistoryHandlerContext,
) => Promise<HistoryToHost[K][1]> | HistoryToHost[K][1];
