import * as vscode from 'vscode';
import { USER_ONLY_REASON, type ResolvedConfig } from '../../../core/config/resolve';
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
    if (demo) {
      // The demo speaks chat completions at its own URL: a model program or another protocol in the user's settings must not take its place.
      config.settings.llm.command = undefined;
      config.settings.llm.provider = undefined;
    }
    for (const w of config.warnings) this.log.warn(w);
    if (config.ignored.length) {
      for (const i of config.ignored) this.log.warn(`ignored ${i.key} from ${i.origin}: ${i.reason}`);
      if (!this.warned) {
        this.warned = true;
        const names = (list: typeof config.ignored) => [...new Set(list.map((i) => i.key.replace(/^patchpilot\./, '')))].join(', ');
        const userOnly = config.ignored.filter((i) => i.reason === USER_ONLY_REASON);
        const untrusted = config.ignored.filter((i) => i.reason !== USER_ONLY_REASON);
        // No trust makes a user-only key count: say so instead of offering Workspace Trust.
        if (userOnly.length) void vscode.window.showWarningMessage(`PatchPilot ignored ${names(userOnly)} from the workspace settings: ${USER_ONLY_REASON}.`);
        if (untrusted.length) {
          void vscode.window.showWarningMessage(`PatchPilot ignored workspace settings because this workspace is not trusted: ${names(untrusted)}.`, 'Manage Workspace Trust').then((pick) => {
            if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
          });
        }
      }
    }
    return { config, trusted, missing: missing(config), demo: !!demo };
  }
}

function missing(config: ResolvedConfig): string | undefined {
  const { baseUrl, model, command, provider } = config.settings.llm;
  // A model program needs no endpoint or key; Anthropic's endpoint defaults to the SDK's.
  if (command) return undefined;
  if (!baseUrl && provider !== 'anthropic') return 'No model endpoint: set patchpilot.llm.baseUrl in your user settings, or try the built-in demo model first.';
  if (!model) return 'No model: run "PatchPilot: Select Model" or set patchpilot.llm.model.';
  if (!config.apiKey && (!baseUrl || !isLoopbackEndpoint(baseUrl))) return 'No API key: run "PatchPilot: Set API Key" (a model server on this machine needs none).';
  return undefined;
}
