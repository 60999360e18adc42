/**
 * The diff review in VS Code: the DiffPreview port (src/core/ports/diffPreview.ts).
 *
 * API for the host (the VS Code Approver calls `review` for patches):
 *
 *   registerDiffReview(context)            once in activate(): content providers, the CodeLens, the
 *                                          review/undo commands; returns the shared DiffReview services
 *   const preview = new VsCodeDiffPreview(context, log)
 *   preview.review({ patchText, preview: dryRun }, signal): Promise<PatchReviewAnswer>
 *       opens one native diff editor per file (left: current text, unsaved edits included,
 *       read-only; right: the dry run's result, editable) with Accept / Reject in the title bar and
 *       "Accept hunk" / "Reject hunk" CodeLens per hunk. Resolves when the user presses Accept or
 *       Reject, when every hunk has a decision, or with everything rejected when `signal` aborts.
 *       The answer is the Approver's PatchApprovalAnswer: acceptedHunks, hunkReasons (why a hunk was
 *       rejected), editedPatch (what the user typed on the right, as a patch to apply instead).
 *   preview.showApplied(result)          auto-edit: shows what was written (read-only left, the file right)
 *   createVsCodePatchEngine(root, preview) the PatchEngine for OrchestratorDeps.patches: a PatchManager over
 *                                          VsCodeWorkspaceFs (dirty buffers in, WorkspaceEdit + save out) that
 *                                          records each apply for "PatchPilot: Undo Last Patch" and shows
 *                                          unreviewed (auto-edit) applies.
 *
 * Approval modes are the core's: in `ask` propose_patch calls the Approver for every patch; in
 * `auto-edit` it applies directly and the engine shows the result; in `plan` nothing is written.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { ApplyResult } from '../../../core/patch';
import type { DiffPreview, PatchReviewAnswer, PatchReviewRequest } from '../../../core/ports';
import { errorMessage } from '../../../core/base';
import type { ReviewHunkView } from '../../../protocol/chat';
import { rejectAll } from './diffReviewLogic';
import { hunkStates } from './hunkStates';
import { CURRENT_SCHEME, CurrentContentProvider, PROPOSED_SCHEME, ProposedFs, parseReviewUri, reviewUri } from './documents';
import { PatchUnderReview } from './patchUnderReview';

export interface DiffReviewLog {
  info(message: string): void;
  warn(message: string): void;
}

/** State shared by the preview, the CodeLens and the commands (one per extension host). */
export class DiffReviewServices {
  readonly sessions = new Map<string, PatchUnderReview>();
  readonly current = new CurrentContentProvider();
  readonly proposed = new ProposedFs();
  readonly lensChanged = new vscode.EventEmitter<void>();

  /** The review of a document (either side), or the only open one. */
  reviewFor(uri?: vscode.Uri): PatchUnderReview | undefined {
    const parsed = uri ? parseReviewUri(uri) : undefined;
    if (parsed) return this.sessions.get(parsed.reviewId);
    const open = [...this.sessions.values()];
    return open.length === 1 ? open[0] : open[open.length - 1];
  }

  documentTexts(session: PatchUnderReview): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const f of session.files) {
      if (session.engineTexts.get(f.path) === null) continue; // a delete has no right side to edit
      const uri = session.rightUri(f.path);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      out.set(f.path, doc ? doc.getText() : (this.proposed.text(uri) ?? null));
    }
    return out;
  }

  /** Puts the engine's text on the right (after a hunk decision), keeping the document saved. */
  async showEngineText(session: PatchUnderReview, path: string, text: string | null): Promise<void> {
    const uri = session.rightUri(path);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!doc) return this.proposed.put(uri, text ?? '');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), doc.lineAt(Math.max(0, doc.lineCount - 1)).range.end), text ?? '');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
  }

  async finish(session: PatchUnderReview, answer: PatchReviewAnswer): Promise<void> {
    if (session.settled) return;
    session.finish(answer);
    this.sessions.delete(session.id);
    // Typed-in proposals are dirty documents: save them (into the in-memory file system) so closing asks nothing.
    for (const f of session.files) {
      const uri = session.rightUri(f.path).toString();
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      if (doc?.isDirty) await doc.save();
    }
    await closeReviewTabs(session);
    for (const f of session.files) {
      this.current.delete(session.leftUri(f.path));
      this.proposed.remove(session.rightUri(f.path));
    }
    await vscode.commands.executeCommand('setContext', 'patchpilot.reviewPending', this.sessions.size > 0);
    this.lensChanged.fire();
  }
}

async function closeReviewTabs(session: PatchUnderReview): Promise<void> {
  const ours = new Set(session.files.flatMap((f) => [session.leftUri(f.path).toString(), session.rightUri(f.path).toString()]));
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputTextDiff) return ours.has(input.modified.toString()) || ours.has(input.original.toString());
      if (input instanceof vscode.TabInputText) return ours.has(input.uri.toString());
      return false;
    });
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

export interface ReviewControls {
  /** The hunks not rejected, plus what the user typed on the right (the title bar's Accept). */
  accept(): Promise<void>;
  /** Nothing is written; the reason goes to the agent. */
  reject(reason?: string): Promise<void>;
  /** Each hunk and the user's decision so far. */
  states(): ReviewHunkView[];
  /** A decision changed (in the diff editor: CodeLens, context menu, Alt+Y / Alt+N). */
  onDidChange: vscode.Event<void>;
  /** VS Code hides the per-hunk buttons now (diffEditor.codeLens off). */
  hunkButtonsHidden: boolean;
}

/** Turns on VS Code's diffEditor.codeLens (user settings), so "Accept hunk" / "Reject hunk" show above each hunk. */
export async function showHunkButtons(): Promise<void> {
  await vscode.workspace.getConfiguration('diffEditor').update('codeLens', true, vscode.ConfigurationTarget.Global);
}

export class VsCodeDiffPreview implements DiffPreview {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: DiffReviewServices,
    private readonly log: DiffReviewLog = { info: () => undefined, warn: () => undefined },
  ) {}

  /**
   * `started` gets the review's whole-patch Accept and Reject, for other places that offer them
   * (the chat's review card); they act exactly as the editor title bar's buttons.
   */
  async review(request: PatchReviewRequest, signal: AbortSignal, started?: (controls: ReviewControls) => void): Promise<PatchReviewAnswer> {
    if (signal.aborted) return rejectAll('the review was cancelled');
    const session = new PatchUnderReview(randomBytes(4).toString('hex'), request);
    this.services.sessions.set(session.id, session);
    started?.({
      accept: () => this.services.finish(session, session.answer(this.services.documentTexts(session))),
      reject: (reason) => this.services.finish(session, rejectAll(reason)),
      states: () => hunkStates(session.files, session.choices),
      onDidChange: this.services.lensChanged.event,
      hunkButtonsHidden: !vscode.workspace.getConfiguration('diffEditor').get<boolean>('codeLens'),
    });
    for (const f of session.files) {
      this.services.current.set(session.leftUri(f.path), f.leftText ?? '');
      this.services.proposed.put(session.rightUri(f.path), session.engineTexts.get(f.path) ?? '');
    }
    await vscode.commands.executeCommand('setContext', 'patchpilot.reviewPending', true);
    const onAbort = () => void this.services.finish(session, rejectAll('the run was stopped before the review ended'));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const count = session.hunkIds().length;
      this.log.info(`review ${session.id}: ${session.files.length} file(s), ${count} hunk(s)`);
      // One diff editor per file, the first one focused: each keeps its own title bar and CodeLens.
      // The answer does not wait for the editors: the chat card can be answered before they are open
      // (and an editor closed while opening may never report back). Tabs that open after the answer close.
      void this.openEditors(session).catch((err: unknown) => this.log.warn(`review ${session.id}: the diff editor did not open: ${errorMessage(err)}`));
      const answer = await session.done;
      const edited = answer.editedPatch ? ", with the user's edits" : '';
      this.log.info(`review ${session.id}: answered, ${answer.acceptedHunks.length} of ${count} hunk(s) accepted${edited}`);
      return answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async openEditors(session: PatchUnderReview): Promise<void> {
    for (const [i, f] of session.files.entries()) {
      if (session.settled) break;
      const title = `${f.path} (PatchPilot proposal${session.files.length > 1 ? ` ${i + 1}/${session.files.length}` : ''})`;
      await vscode.commands.executeCommand('vscode.diff', session.leftUri(f.path), session.rightUri(f.path), title, { preview: false, preserveFocus: i > 0 });
    }
    if (session.settled) return closeReviewTabs(session);
    this.services.lensChanged.fire();
    void this.offerHunkLenses();
  }

  /**
   * VS Code hides CodeLens in diff editors unless `diffEditor.codeLens` is on: ask once (per user)
   * whether to turn it on. Without it, "Accept Hunk" / "Reject Hunk" stay in the editor's context menu
   * and act on the hunk under the cursor, the decorations (hunkFeedback.ts) show each hunk's state, and
   * the offer stays reachable: the "PatchPilot: Show Hunk Buttons" command and the chat card's button.
   */
  private async offerHunkLenses(): Promise<void> {
    const config = vscode.workspace.getConfiguration('diffEditor');
    const asked = 'patchpilot.askedDiffEditorCodeLens';
    if (config.get<boolean>('codeLens') || this.context.globalState.get(asked)) return;
    await this.context.globalState.update(asked, true);
    const turnOn = 'Show Hunk Buttons';
    const pick = await vscode.window.showInformationMessage(
      'PatchPilot puts "Accept hunk" and "Reject hunk" above each hunk, but VS Code hides such buttons in diff editors (setting diffEditor.codeLens). Show them?',
      turnOn,
    );
    if (pick === turnOn) await showHunkButtons();
  }

  async showApplied(result: ApplyResult): Promise<void> {
    const id = randomBytes(4).toString('hex');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) return;
    for (const f of result.files) {
      const path = f.newPath ?? f.oldPath;
      if (!path || f.status !== 'ok') continue;
      const left = reviewUri(CURRENT_SCHEME, id, path);
      this.services.current.set(left, f.oldText ?? '');
      const right = f.newPath ? vscode.Uri.joinPath(root, ...f.newPath.split('/')) : reviewUri(CURRENT_SCHEME, `${id}-deleted`, path);
      await vscode.commands.executeCommand('vscode.diff', left, right, `${path} (applied by PatchPilot)`, { preview: true, preserveFocus: true });
    }
  }
}

/** The schemes' providers and the CodeLens; the commands are registered from src/host/vscode/commands. */
export function registerDiffReviewProviders(context: vscode.ExtensionContext, s: DiffReviewServices, lenses: vscode.CodeLensProvider): void {
  context.subscriptions.push(
    s.lensChanged,
    vscode.workspace.registerTextDocumentContentProvider(CURRENT_SCHEME, s.current),
    vscode.workspace.registerFileSystemProvider(PROPOSED_SCHEME, s.proposed, { isCaseSensitive: true }),
    vscode.languages.registerCodeLensProvider({ scheme: PROPOSED_SCHEME }, lenses),
  );
}
