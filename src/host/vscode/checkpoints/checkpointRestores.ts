/**
 * The window's "Restore to Here" (chat and history panel): previews, the native diff editor for a
 * file of a preview, and the restore itself, all through WorkspaceRestores (the core's restore).
 * A restore that wrote files is announced (onDidRestore): the chat shows it with Redo.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import type { RestoreDone, RestoreOutcome, RestorePointView, RestorePreview, RestoreRequest } from '../../../protocol/restore';
import { WorkspaceRestores } from './restoreLogic';

/** `patchpilot-checkpoint:/<sha256 | none>/<workspace path>`: a kept content, read-only; the file name last, for the language. */
export const CHECKPOINT_SCHEME = 'patchpilot-checkpoint';

export class CheckpointRestores implements vscode.Disposable {
  private readonly restored = new vscode.EventEmitter<RestoreDone>();
  readonly onDidRestore = this.restored.event;

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>) {}

  private workspace(): WorkspaceRestores | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    try {
      return new WorkspaceRestores(folder.uri.fsPath);
    } catch {
      return undefined;
    }
  }

  /** Paths with unsaved edits in an editor: a restore would lose them, so they block. */
  private unsaved(): Set<string> {
    const out = new Set<string>();
    for (const d of vscode.workspace.textDocuments) {
      if (!d.isDirty || d.uri.scheme !== 'file') continue;
      const rel = vscode.workspace.asRelativePath(d.uri, false).replace(/\\/g, '/');
      if (!rel.startsWith('..') && rel !== d.uri.fsPath) out.add(rel);
    }
    return out;
  }

  points(runId: string): RestorePointView[] {
    return this.workspace()?.points(runId) ?? [];
  }

  preview(request: RestoreRequest): RestorePreview {
    const w = this.workspace();
    if (!w) return { ok: false, message: 'Open a local folder first: checkpoints live in the workspace.' };
    return w.preview(request, this.unsaved());
  }

  /** The native diff editor: the file as it is now (left) and as the restore would write it (right). */
  async diff(request: RestoreRequest, file: string): Promise<{ ok: boolean; message: string }> {
    const w = this.workspace();
    if (!w) return { ok: false, message: 'No local workspace folder.' };
    try {
      const sides = w.sides(request, file);
      if (!sides) return { ok: false, message: `${file} is not in this restore any more.` };
      if (sides.afterText === undefined) return { ok: false, message: `${file} is binary: no text diff.` };
      const left = sides.now ? vscode.Uri.joinPath(vscode.Uri.file(w.root), file) : checkpointUri('none', file);
      const right = checkpointUri(sides.after?.hash ?? 'none', file);
      const title = `${file}: now ↔ ${request.redo ? 'after the redo' : `before step ${request.beforeStep}`}`;
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
      return { ok: true, message: `Showing ${file}.` };
    } catch (err) {
      return { ok: false, message: errorMessage(err) };
    }
  }

  apply(request: RestoreRequest, restoreRest: boolean): RestoreOutcome {
    const w = this.workspace();
    if (!w) return { ok: false, message: 'Open a local folder first.', restored: [], blocked: [] };
    const { done, ...outcome } = w.apply(request, restoreRest, this.unsaved());
    this.log[outcome.ok ? 'info' : 'warn'](`restore ${request.runId} before step ${request.beforeStep}${request.redo ? ' (redo)' : ''}: ${outcome.message}`);
    if (done) this.restored.fire(done);
    return outcome;
  }

  /** The read-only documents of kept contents (the right side of a restore's diff). */
  contentProvider(): vscode.TextDocumentContentProvider {
    return {
      provideTextDocumentContent: (uri) => {
        const hash = /^\/([0-9a-f]{64}|none)\//.exec(uri.path)?.[1];
        const w = this.workspace();
        if (!hash || hash === 'none' || !w || !w.store.blobs.has(hash)) return '';
        return w.store.blobs.get(hash).toString('utf8');
      },
    };
  }

  dispose(): void {
    this.restored.dispose();
  }
}

function checkpointUri(hash: string, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${hash}/${file}` });
}
