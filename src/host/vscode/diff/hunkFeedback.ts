import * as vscode from 'vscode';
import { parseReviewUri } from './documents';
import { hunkStates, reviewSummary } from './hunkStates';
import type { DiffReviewServices } from './vsCodeDiffPreview';

/**
 * Each hunk's state where the user looks, with or without CodeLens (VS Code's default hides it in
 * diff editors): a decoration on the hunk's lines in the proposal (green accepted, red struck-through
 * rejected, a marker for undecided; the hover says which and how to change it) and the review's
 * state in the status bar. Redrawn whenever a decision changes (lensChanged) or an editor shows.
 */
export function registerHunkFeedback(context: vscode.ExtensionContext, s: DiffReviewServices): void {
  const label = (text: string, color: vscode.ThemeColor) => ({ after: { contentText: text, color, margin: '0 0 0 2em', fontStyle: 'italic' } });
  const types = {
    accepted: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('testing.iconPassed'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      borderColor: new vscode.ThemeColor('testing.iconPassed'),
      borderStyle: 'solid',
      borderWidth: '0 0 0 3px',
    }),
    rejected: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      overviewRulerColor: new vscode.ThemeColor('testing.iconFailed'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      borderColor: new vscode.ThemeColor('testing.iconFailed'),
      borderStyle: 'solid',
      borderWidth: '0 0 0 3px',
      opacity: '0.75',
    }),
    undecided: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderColor: new vscode.ThemeColor('editorInfo.foreground'),
      borderStyle: 'dashed',
      borderWidth: '0 0 0 3px',
    }),
  } as const;
  const status = vscode.window.createStatusBarItem('patchpilot.review', vscode.StatusBarAlignment.Left, 100);
  status.name = 'PatchPilot Review';
  status.command = 'patchpilot.openChat';

  const draw = () => {
    for (const editor of vscode.window.visibleTextEditors) {
      const parsed = parseReviewUri(editor.document.uri);
      const session = parsed && s.sessions.get(parsed.reviewId);
      if (!parsed || !session || editor.document.uri.scheme !== session.rightUri(parsed.path).scheme) continue;
      const states = new Map(hunkStates(session.files, session.choices).map((h) => [h.id, h]));
      const byState: Record<keyof typeof types, vscode.DecorationOptions[]> = { accepted: [], rejected: [], undecided: [] };
      const last = Math.max(0, editor.document.lineCount - 1);
      for (const p of session.placements(parsed.path)) {
        const h = states.get(p.id);
        if (!h) continue;
        const first = Math.min(p.line, last);
        const end = Math.min(p.line + Math.max(1, p.lineCount) - 1, last);
        const word = h.state === 'undecided' ? 'undecided (Accept takes it)' : h.state;
        const how =
          h.state === 'undecided'
            ? 'Put the cursor here: Alt+Y accepts it, Alt+N rejects it (or the context menu, or the chat card).'
            : `Alt+${h.state === 'accepted' ? 'N rejects' : 'Y accepts'} it instead (cursor on the hunk).`;
        const hover = new vscode.MarkdownString(`**PatchPilot: ${h.label}: ${h.state}**${h.reason ? ` (reason: ${h.reason})` : ''}\n\n${how}`);
        const color = new vscode.ThemeColor(
          h.state === 'accepted' ? 'testing.iconPassed' : h.state === 'rejected' ? 'testing.iconFailed' : 'editorInfo.foreground',
        );
        byState[h.state].push({ range: new vscode.Range(first, 0, end, 0), hoverMessage: hover });
        byState[h.state].push({ range: new vscode.Range(first, 0, first, 0), renderOptions: label(`${h.label.replace(/ in .*$/, '')}: ${word}`, color) });
      }
      for (const k of Object.keys(types) as (keyof typeof types)[]) editor.setDecorations(types[k], byState[k]);
    }
    const session = s.reviewFor(vscode.window.activeTextEditor?.document.uri);
    if (!session) return status.hide();
    const states = hunkStates(session.files, session.choices);
    status.text = `$(git-compare) PatchPilot review: ${reviewSummary(states)}`;
    status.tooltip = `${states.map((h) => `${h.label}: ${h.state}`).join('\n')}\n\nAccept (undecided hunks go in) and Reject are in the editor's title bar and on the chat's card; click to open the chat.`;
    status.show();
  };
  context.subscriptions.push(
    ...Object.values(types),
    status,
    s.lensChanged.event(draw),
    vscode.window.onDidChangeVisibleTextEditors(draw),
    vscode.window.onDidChangeActiveTextEditor(draw),
  );
}
