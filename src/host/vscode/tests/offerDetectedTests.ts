import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PatchPilotSettings } from '../../../core/config';
import { Emitter } from '../../../core/base';
import { errorMessage } from '../../../core/base';
import {
  answerOf,
  detectTestCommand,
  diskProbe,
  rememberedAfterUse,
  shouldOfferTests,
  testCommandPlaces,
  testOfferButtons,
  type DetectedTestCommand,
  type TestCommandPlace,
  type TestOfferAnswer,
} from '../../../core/testRuns';
import type { WindowSettings } from '../config/windowSettings';

/** workspaceState key of the user's answer to the offer (per workspace: another project asks again). */
export const TEST_OFFER_STATE = 'patchpilot.tests.detectedOffer';
/** The command the chat banner's buttons go through (not in the palette: it answers an offer on screen). */
export const ANSWER_TESTS_OFFER = 'patchpilot.tests.answerDetectedOffer';

type Answer = 'use' | 'not-now' | 'never';
const PLACES: readonly string[] = ['window', 'workspace', 'user'] satisfies TestCommandPlace[];
/**
 * How long the chat has, after the offer is found, to come on screen before the offer falls back to
 * a notification: opening the chat is what activates the extension, and its view resolves just after.
 */
const CHAT_SHOWS_WITHIN_MS = 3_000;
const CHAT_POLL_MS = 200;

/**
 * With no patchpilot.tests.commands, offers the project's own test command (npm test, cargo test...)
 * once, with "Use <command>" first, in one place at a time: the chat's banner when the chat is on
 * screen, a notification only when it is not (the banner still waits in the chat for later). "Use" asks where to
 * keep the choice: this window only (a layer in memory, WindowSettings), this workspace
 * (.vscode/settings.json, said so) or the user settings; the command is then a configured test
 * command like any other (the same resolver, policy, sandbox and approvals). The answer (Use, Not
 * Now, Never for This Workspace) is remembered in the workspace state, except a window-only Use: the
 * next window asks again. Nothing is offered or run in Restricted Mode; trust granted later brings the offer.
 */
export class DetectedTestsOffer implements vscode.Disposable {
  private current: DetectedTestCommand | undefined;
  private checking = false;
  private readonly changed = new Emitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The offer appeared or was answered: the chat's status shows it or stops showing it. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly settingsNow: () => PatchPilotSettings,
    private readonly log: vscode.LogOutputChannel,
    private readonly windowSettings: WindowSettings,
    /** Whether the chat view is on screen now (ChatViewSlot.visible). */
    private readonly chatVisible: () => boolean,
  ) {
    this.disposables.push(
      // `place` (optional, for Use): where to keep it without asking.
      vscode.commands.registerCommand(ANSWER_TESTS_OFFER, (answer: unknown, place?: unknown) => {
        if (answer !== 'use' && answer !== 'not-now' && answer !== 'never') return false;
        if (place !== undefined && !PLACES.includes(place as string)) throw new Error(`unknown place for the test command: ${String(place)}`);
        return this.answer(answer, place as TestCommandPlace | undefined);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.check()),
      // A command set by hand answers the offer too: the banner goes.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.current && e.affectsConfiguration('patchpilot.tests.commands') && this.settingsNow().tests.commands.length > 0) this.settle();
      }),
    );
  }

  /** The command on offer now (undefined: nothing to offer, or answered). */
  get pending(): DetectedTestCommand | undefined {
    return vscode.workspace.isTrusted ? this.current : undefined;
  }

  /** Looks for the project's command and, when the rules say so, offers it. */
  async check(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (this.checking || this.current || !folder || folder.uri.scheme !== 'file' || !vscode.workspace.isTrusted) return;
    this.checking = true;
    try {
      const detected = await detectTestCommand(diskProbe(folder.uri.fsPath));
      const remembered = this.context.workspaceState.get<TestOfferAnswer>(TEST_OFFER_STATE);
      if (!detected || !shouldOfferTests({ trusted: vscode.workspace.isTrusted, configured: this.settingsNow().tests.commands, remembered, detected })) return;
      this.current = detected;
      this.changed.fire();
      void this.notifyUnlessInChat(detected);
    } catch (err) {
      this.log.warn(`the detected test command was not offered: ${errorMessage(err)}`);
    } finally {
      this.checking = false;
    }
  }

  /**
   * The user's answer, from the banner or the notification; false when nothing was on offer (answered
   * already) or Use's question of where was dismissed (the offer stays).
   */
  async answer(answer: Answer, place?: TestCommandPlace): Promise<boolean> {
    const detected = this.current;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!detected || !folder || !vscode.workspace.isTrusted) return false;
    if (answer === 'use') place ??= await this.askPlace(detected, folder);
    if (answer === 'use' && (!place || this.current !== detected)) return false;
    this.settle();
    const remembered: TestOfferAnswer | undefined =
      answer === 'use' ? rememberedAfterUse(place ?? 'window') : answer === 'never' ? { answer: 'never' } : { answer: 'not-now', command: detected.command };
    try {
      if (answer === 'use') await this.keep(detected.command, place ?? 'window', folder);
      if (remembered) await this.context.workspaceState.update(TEST_OFFER_STATE, remembered);
      return true;
    } catch (err) {
      this.log.warn(`the answer to the detected test command was not saved: ${errorMessage(err)}`);
      void vscode.window.showWarningMessage(`PatchPilot: "${detected.command}" could not be saved as the test command: ${errorMessage(err)}`);
      return false;
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.changed.dispose();
  }

  private settle(): void {
    this.current = undefined;
    this.changed.fire();
  }

  /** Where to keep "Use <command>"; undefined when the question was dismissed. */
  private async askPlace(detected: DetectedTestCommand, folder: vscode.WorkspaceFolder): Promise<TestCommandPlace | undefined> {
    const settingsFile =
      vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : path.join(folder.name, '.vscode', 'settings.json');
    const items = testCommandPlaces(detected.command, settingsFile).map((c) => ({
      label: c.label,
      description: c.description,
      detail: c.detail,
      place: c.place,
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: `Where should PatchPilot keep "${detected.command}" as the test command?`,
      ignoreFocusOut: true,
    });
    return pick?.place;
  }

  private async keep(command: string, place: TestCommandPlace, folder: vscode.WorkspaceFolder): Promise<void> {
    this.log.info(
      `test command "${command}" kept in ${place === 'window' ? 'this window only' : place === 'user' ? 'the user settings' : 'the workspace settings'}`,
    );
    if (place === 'window') return this.windowSettings.set('patchpilot.tests.commands', [command]);
    const target = place === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
    await vscode.workspace.getConfiguration('patchpilot', folder.uri).update('tests.commands', [command], target);
  }

  /**
   * The same question twice at once (a toast and the banner) reads as two things to answer. The banner
   * is the better place when the chat is on screen: it sits where the user works and stays until
   * answered, while a toast hides after seconds. The toast is for a window whose chat is closed, so
   * the offer is still heard.
   */
  private async notifyUnlessInChat(detected: DetectedTestCommand): Promise<void> {
    for (let waited = 0; !this.chatVisible() && waited < CHAT_SHOWS_WITHIN_MS; waited += CHAT_POLL_MS)
      await new Promise((resolve) => setTimeout(resolve, CHAT_POLL_MS)); // the view's resolve has no event of its own to wait on
    if (this.chatVisible() || this.current !== detected) return;
    await this.notify(detected);
  }

  private async notify(detected: DetectedTestCommand): Promise<void> {
    const pick = await vscode.window.showInformationMessage(
      `PatchPilot found this project's tests: "${detected.command}" (from ${detected.source}). Run them after every edit the agent makes?`,
      ...testOfferButtons(detected),
    );
    const answer = answerOf(detected, pick);
    // Answered in the chat meanwhile (this.current is then another object or none): the late click does nothing.
    if (answer && this.current === detected) await this.answer(answer.answer === 'used' ? 'use' : answer.answer);
  }
}
