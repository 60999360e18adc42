import * as vscode from 'vscode';
import type { HistoryService } from './historyService';
import { patchSides } from './patchSidesLogic';

export const HISTORY_PATCH_SCHEME = 'patchpilot-history';

/** `patchpilot-history:/<runId>/<patchId>/<before|after>/<file path>`: the file name last, so the editor picks the language. */
export function patchSideUri(runId: string, patchId: string, side: 'before' | 'after', file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: HISTORY_PATCH_SCHEME, path: `/${runId}/${patchId}/${side}/${file.replace(/^\/+/, '')}` });
}

function parse(uri: vscode.Uri): { runId: string; patchId: string; side: 'before' | 'after'; file: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\/(before|after)\/(.+)$/.exec(uri.path);
  return m ? { runId: m[1]!, patchId: m[2]!, side: m[3] as 'before' | 'after', file: m[4]! } : undefined;
}

/** The recorded sides, read-only (a content provider's documents cannot be edited or saved). */
export class RecordedPatchContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly service: HistoryService) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const at = parse(uri);
    if (!at) return '';
    const detail = await (await this.service.store()).getRun(at.runId);
    const patch = detail?.patches.find((p) => p.id === at.patchId);
    if (!patch) return `(the run or patch is no longer in the history)`;
    const side = patchSides(patch).find((s) => s.path === at.file);
    return side ? side[at.side] : '';
  }
}
