import * as vscode from 'vscode';
import type { ResolvedConfig } from '../../../core/config/resolve';
import type { PatchPilotSettings } from '../../../core/config/settings';
import { isLoopbackEndpoint, readHostConfig } from './settingsReader';
import type { DemoModel } from './demoModel';
import type { ApiKeyStore } from './secrets';

export interface LoadedConfig {
  config: ResolvedConfig;
  trusted: boolean;
  /** Why a run cannot start (no endpoint, model or key); undefined when ready. */
  missing?: string;
  /** The built-in demo model answers instead of a configured one. */
  demo: boolean;
}

/**
 * The extension's settings: VS Code's user and workspace configuration through the core's trust
 * filter, the key from SecretStorage. The first time workspace values are ignored, a warning (with
 * a button to manage trust) says which; the log has the details every time.
 */
export class HostConfig {
  private warned = false;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly demo?: DemoModel,
    private readonly searchKeys?: ApiKeyStore,
  ) {}

  async load(): Promise<LoadedConfig> {
    const trusted = vscode.workspace.isTrusted;
    const demo = await this.demo?.layer();
    const config = readHostConfig({ configuration: vscode.workspace.getConfiguration(), trusted, apiKey: demo ? undefined : await this.keys.get(), webSearchKey: await this.searchKeys?.get(), overrides: demo ? [demo] : [] });
    for (const w of config.warnings) this.log.warn(w);
    if (config.ignored.length) {
      for (const i of config.ignored) this.log.warn(`ignored ${i.key} from ${i.origin}: ${i.reason}`);
      if (!this.warned) {
        this.warned = true;
        const keys = [...new Set(config.ignored.map((i) => i.key.replace(/^patchpilot\./, '')))].join(', ');
        void vscode.window.showWarningMessage(`PatchPilot ignored workspace settings because this workspace is not trusted: ${keys}.`, 'Manage Workspace Trust').then((pick) => {
          if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
        });
      }
    }
    return { config, trusted, missing: missing(config), demo: !!demo };
  }

  /**
   * The settings now, through the same resolver as `load()` (keys and the demo endpoint left out:
   * they change no policy). For the test tasks, which must not read VS Code's configuration another way.
   * Throws the core's ConfigError on an invalid value.
   */
  settingsNow(): PatchPilotSettings {
    return readHostConfig({ configuration: vscode.workspace.getConfiguration(), trusted: vscode.workspace.isTrusted }).settings;
  }
}

function missing(config: ResolvedConfig): string | undefined {
  const { baseUrl, model } = config.settings.llm;
  if (!baseUrl) return 'No model endpoint: set patchpilot.llm.baseUrl in your user settings, or try the built-in demo model first.';
  if (!model) return 'No model: run "PatchPilot: Select Model" or set patchpilot.llm.model.';
  if (!config.apiKey && !isLoopbackEndpoint(baseUrl)) return 'No API key: run "PatchPilot: Set API Key" (a model server on this machine needs none).';
  return undefined;
}
