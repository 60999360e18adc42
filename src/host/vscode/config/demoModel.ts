import * as vscode from 'vscode';
import type { SettingsLayer } from '../../../core/config';
import { startDemoModelServer, type DemoModelServer } from '../../../core/demo';

const STATE_KEY = 'patchpilot.demoModel.on';

/**
 * The built-in demo model, chosen per workspace (kept across reloads). While it is on, its loopback
 * server is the endpoint: one settings layer above all others, so the rest of the settings (tests,
 * approval mode, policy) stay the user's. Started on first use, stopped with the extension.
 */
export class DemoModel implements vscode.Disposable {
  private server: Promise<DemoModelServer> | undefined;
  private readonly changed = new vscode.EventEmitter<boolean>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.publish();
  }

  get enabled(): boolean {
    return this.state.get<boolean>(STATE_KEY) === true;
  }

  async setEnabled(on: boolean): Promise<void> {
    if (on === this.enabled) return;
    await this.state.update(STATE_KEY, on);
    if (!on) this.stopServer();
    this.log.info(on ? 'demo model on for this workspace' : 'demo model off');
    this.publish();
    this.changed.fire(on);
  }

  /** The layer that points the agent at the demo server, or nothing while the demo is off. */
  async layer(): Promise<SettingsLayer | undefined> {
    if (!this.enabled) return undefined;
    this.server ??= startDemoModelServer().then((s) => {
      this.log.info(`demo model serving at ${s.baseUrl}`);
      return s;
    });
    this.server.catch(() => (this.server = undefined));
    const s = await this.server;
    return {
      scope: 'flag',
      origin: 'the demo model',
      values: { 'patchpilot.llm.provider': 'custom', 'patchpilot.llm.baseUrl': s.baseUrl, 'patchpilot.llm.model': s.model },
    };
  }

  /** For `when` clauses: "Stop Using Demo Model" is enabled only while the demo is on. */
  private publish(): void {
    void vscode.commands.executeCommand('setContext', 'patchpilot.demoModel', this.enabled);
  }

  dispose(): void {
    this.stopServer();
    this.changed.dispose();
  }

  private stopServer(): void {
    const s = this.server;
    this.server = undefined;
    void s?.then((x) => x.close()).catch(() => undefined);
  }
}
