/**
 * The chat's status line: the model, what keeps a run from starting (a missing key, an invalid
 * setting, Restricted Mode), the demo's state and the detected tests waiting for an answer. Read
 * from the settings without starting anything; `onDidChange` fires when a refresh read them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { Disposable, Emitter, errorMessage } from '../../../../core/base';
import type { ChatStatus } from '../../../../protocol/chat';
import type { HostConfig } from '../../config/hostConfig';

const RESTRICTED = 'Restricted Mode: PatchPilot can read and explain, but runs no commands or tests and applies no patches until you trust this workspace.';

/** What the status line shows beside its own part: whether a run works, the offer, the MCP suggestions. */
export interface StatusParts {
  running: boolean;
  testsOffer?: () => { command: string; source: string } | undefined;
  suggestions: Pick<ChatStatus, 'commands' | 'mentions'>;
}

export class ChatStatusLine extends Disposable {
  private readonly didChange = this._register(new Emitter<void>());
  readonly onDidChange = this.didChange.event;
  /** The configured model, or the one the newest run started with. */
  model: string | undefined;
  /** Why a run cannot start now (a missing key, a setting that does not load); undefined: it can. */
  notice: string | undefined;
  private demo = false;
  /** The workspace holds the sample's dates.js (the demo model's one bug). */
  private sampleHere = false;

  constructor(private readonly config: HostConfig) {
    super();
  }

  /** Reads the settings for the status line (model, what is missing) without starting anything. */
  async refresh(): Promise<void> {
    try {
      const loaded = await this.config.load();
      this.model = loaded.config.settings.llm.model;
      this.notice = loaded.missing;
      this.demo = loaded.demo;
      const folder = vscode.workspace.workspaceFolders?.[0];
      this.sampleHere = folder?.uri.scheme === 'file' && existsSync(path.join(folder.uri.fsPath, 'dates.js'));
    } catch (err) {
      this.notice = errorMessage(err);
    }
    this.didChange.fire();
  }

  status(parts: StatusParts): ChatStatus {
    const trusted = vscode.workspace.isTrusted;
    const testsOffer = trusted ? parts.testsOffer?.() : undefined;
    return {
      running: parts.running,
      model: this.model,
      trusted,
      notice: this.notice ?? (trusted ? undefined : RESTRICTED),
      ...(this.demo ? { demo: true, sampleHere: this.sampleHere } : {}),
      ...(testsOffer ? { testsOffer } : {}),
      ...parts.suggestions,
    };
  }
}
