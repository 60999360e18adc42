import * as vscode from 'vscode';
import { runAuditJson } from '../../../core/history';
import { runToMarkdown } from '../../../core/historyView';
import type { OperationResult } from '../../../protocol/history';
import type { HistoryService } from './historyService';
import { exportFileName } from './exportName';
import type { RunDetail } from '../../../core/history';

/** The folder of the last export (a URI string), offered by the next save dialog. */
const EXPORT_FOLDER_KEY = 'patchpilot.history.exportFolder';

export type ExportFormat = 'json' | 'markdown';

/**
 * Export, delete and retention for the history panel (and the in-host tests, which pass the answers
 * a person would give in the save dialog and the confirmation).
 */
export class RunOperations {
  constructor(
    private readonly service: HistoryService,
    private readonly log: vscode.LogOutputChannel,
    /** Where the last export went (the workspace's state): the next one is offered there. */
    private readonly memory?: vscode.Memento,
  ) {}

  /** The save dialog's default: the folder of the last export (else the workspace folder), named by the day and the goal. */
  async defaultExportUri(detail: RunDetail, format: ExportFormat): Promise<vscode.Uri | undefined> {
    const name = exportFileName(detail.run.goal, detail.run.startedAt, format === 'json' ? 'json' : 'md');
    const last = this.memory?.get<string>(EXPORT_FOLDER_KEY);
    if (last) {
      const folder = vscode.Uri.parse(last);
      const exists = await vscode.workspace.fs.stat(folder).then(
        (s) => s.type === vscode.FileType.Directory,
        () => false,
      );
      if (exists) return vscode.Uri.joinPath(folder, name);
    }
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    return root ? vscode.Uri.joinPath(root, name) : undefined;
  }

  /** Writes the run as audit JSON (the format of `patchpilot history export`) or Markdown; asks where unless `target` is given. */
  async exportRun(runId: string, format: ExportFormat, target?: vscode.Uri): Promise<OperationResult> {
    const detail = await (await this.service.store()).getRun(runId);
    if (!detail) return { ok: false, message: 'That run is no longer in the history.' };
    const defaultUri = await this.defaultExportUri(detail, format);
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: `Export the run as ${format === 'json' ? 'audit JSON' : 'Markdown'}`,
        saveLabel: 'Export',
        ...(defaultUri ? { defaultUri } : {}),
        filters: format === 'json' ? { JSON: ['json'] } : { Markdown: ['md'] },
      }));
    if (!uri) return { ok: false, message: 'Export cancelled.' };
    const text = format === 'json' ? await runAuditJson(detail) : runToMarkdown(detail);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    await this.memory?.update(EXPORT_FOLDER_KEY, vscode.Uri.joinPath(uri, '..').toString());
    this.log.info(`history: exported run ${runId} to ${uri.toString(true)}`);
    if (!target) {
      void vscode.window.showInformationMessage(`PatchPilot: exported the run to ${vscode.workspace.asRelativePath(uri)}.`, 'Open').then((pick) => {
        if (pick) void vscode.window.showTextDocument(uri);
      });
    }
    return { ok: true, message: `Exported to ${vscode.workspace.asRelativePath(uri)}.` };
  }

  /** Deletes a run and everything recorded under it, after a modal confirmation (unless `confirmed`). */
  async deleteRun(runId: string, confirmed = false): Promise<OperationResult> {
    const store = await this.service.store();
    const detail = await store.getRun(runId);
    if (!detail) return { ok: false, message: 'That run is no longer in the history.' };
    if (!confirmed) {
      const goal = detail.run.goal.replace(/\s+/g, ' ').slice(0, 200);
      const pick = await vscode.window.showWarningMessage(
        'Delete this run from the history?',
        {
          modal: true,
          detail: `"${goal}"\n\nIts ${n(detail.steps.length, 'step')}, ${n(detail.patches.length, 'patch', 'patches')}, ${n(detail.testRuns.length, 'test run')} and ${n(detail.observations.length, 'observation')} are deleted too. Files in the workspace are not touched. This cannot be undone.`,
        },
        'Delete',
      );
      if (pick !== 'Delete') return { ok: false, message: 'Nothing was deleted.' };
    }
    const { deleted } = await store.deleteRun(runId);
    await store.flush();
    this.log.info(`history: deleted run ${runId} (${deleted} rows)`);
    return { ok: true, message: `Deleted the run and ${Math.max(0, deleted - 1)} rows recorded under it.` };
  }

  /** The retention settings, now. */
  async applyRetention(): Promise<OperationResult> {
    const retention = await this.service.retention();
    if (!retention) return { ok: false, message: 'No retention is set: the history keeps everything (settings patchpilot.history.retention.*).' };
    const store = await this.service.store();
    const { deleted } = await store.prune(retention);
    await store.flush();
    return { ok: true, message: deleted ? `Retention applied: ${deleted} rows deleted.` : 'Retention applied: nothing was old enough to delete.' };
  }
}

/** "1 step", "2 steps". */
function n(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
