import * as vscode from 'vscode';
import { parseReviewUri } from './documents';
import type { DiffReviewServices } from './vsCodeDiffPreview';

/** "Accept hunk" / "Reject hunk" above each hunk of a right-hand (proposed) document. */
export class HunkCodeLensProvider implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly services: DiffReviewServices) {
    this.onDidChangeCodeLenses = services.lensChanged.event;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const parsed = parseReviewUri(document.uri);
    const session = parsed && this.services.sessions.get(parsed.reviewId);
    if (!parsed || !session) return [];
    const placements = session.placements(parsed.path);
    const top = new vscode.Range(0, 0, 0, 0);
    const notices = session.notices.map((n) => new vscode.CodeLens(top, { title: `$(warning) ${n}`, tooltip: n, command: '' }));
    return notices.concat(
      placements.flatMap((p, i) => {
        const line = Math.min(p.line, Math.max(0, document.lineCount - 1));
        const range = new vscode.Range(line, 0, line, 0);
        const choice = session.choices.get(p.id);
        const state = choice ? (choice.accepted ? 'accepted' : 'rejected') : 'pending';
        const label = `Hunk ${i + 1}/${placements.length} (${state})`;
        const args = [session.id, p.id];
        return [
          new vscode.CodeLens(range, { title: '$(check) Accept hunk', tooltip: `Accept ${label}`, command: 'patchpilot.review.acceptHunk', arguments: args }),
          new vscode.CodeLens(range, { title: '$(close) Reject hunk', tooltip: `Reject ${label}`, command: 'patchpilot.review.rejectHunk', arguments: args }),
          new vscode.CodeLens(range, { title: label, command: '' }),
        ];
      }),
    );
  }
}
