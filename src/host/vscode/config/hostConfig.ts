import * as vscode from 'vscode';
import { USER_ONLY_REASON, type ResolvedConfig, type SettingsLayer } from '../../../core/config';
import type { PatchPilotSettings } from '../../../core/config';
import { isLoopbackEndpoint, readHostConfig } from './settingsReader';
import type { DemoModel } from './demoModel';
import { providerById, wireOf } from '../../../core/config';
import type { ApiKeyStore, ProviderKeys } from './secrets';
import type { WindowSettings } from './windowSettings';

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
    private readonly keys: ProviderKeys,
    private readonly log: vscode.LogOutputChannel,
    private readonly demo?: DemoModel,
    private readonly searchKeys?: ApiKeyStore,
    /** Choices for this window only: a layer above the workspace's settings, below the demo's endpoint. */
    private readonly windowSettings?: WindowSettings,
  ) {}

  async load(): Promise<LoadedConfig> {
    const trusted = vscode.workspace.isTrusted;
    const demo = await this.demo?.layer();
    const input = {
      configuration: vscode.workspace.getConfiguration(),
      trusted,
      webSearchKey: await this.searchKeys?.get(),
      overrides: [...this.windowLayer(), ...(demo ? [demo] : [])],
    };
    // The key is the chosen provider's own (read through the trust filter first); VS Code's models need none.
    const provider = demo ? undefined : readHostConfig(input).settings.llm.provider;
    const keyed = !demo && wireOf(provider) !== 'vscode';
    const config = readHostConfig({ ...input, apiKey: keyed ? await this.keys.for(provider).get() : undefined, keyOf: providerById(provider)?.label });
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
          void vscode.window
            .showWarningMessage(`PatchPilot ignored workspace settings because this workspace is not trusted: ${names(untrusted)}.`, 'Manage Workspace Trust')
            .then((pick) => {
              if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
            });
        }
      }
    }
    const ownModels = !demo && wireOf(config.settings.llm.provider) === 'vscode' ? await vsCodeModelMissing(config.settings.llm.model) : undefined;
    return { config, trusted, missing: ownModels ?? missing(config), demo: !!demo };
  }

  /**
   * The settings now, through the same resolver as `load()` (keys and the demo endpoint left out:
   * they change no policy). For the test tasks, which must not read VS Code's configuration another way.
   * Throws the core's ConfigError on an invalid value.
   */
  settingsNow(): PatchPilotSettings {
    return readHostConfig({ configuration: vscode.workspace.getConfiguration(), trusted: vscode.workspace.isTrusted, overrides: this.windowLayer() }).settings;
  }

  private windowLayer(): SettingsLayer[] {
    const layer = this.windowSettings?.layer();
    return layer ? [layer] : [];
  }
}

/** Provider "vscode": said before a run, not when it fails to start, that VS Code offers no (such) model. */
async function vsCodeModelMissing(model: string | undefined): Promise<string | undefined> {
  const offered = await vscode.lm.selectChatModels();
  if (!offered.length)
    return 'No model: VS Code offers no language models yet. Sign in to an extension that provides them (GitHub Copilot, for one), or run "PatchPilot: Select Model" to choose another provider.';
  if (model && !offered.some((m) => m.id === model || m.family === model))
    return `No model: VS Code offers no model "${model}" (it offers ${offered.map((m) => m.id).join(', ')}); run "PatchPilot: Select Model".`;
  return undefined;
}

function missing(config: ResolvedConfig): string | undefined {
  const { baseUrl, model, provider, command } = config.settings.llm;
  // VS Code's models: no endpoint and no key; without a model, the first one VS Code offers.
  // A model program needs no endpoint or key; Anthropic's endpoint defaults to the SDK's.
  if (wireOf(provider) === 'vscode' || command) return undefined;
  if (!baseUrl && provider !== 'anthropic')
    return 'No model endpoint: run "PatchPilot: Select Model" to choose a provider (or "PatchPilot: Set Endpoint"), or try the built-in demo model first.';
  // Said as the next step from here: the endpoint is set, one of its models is what is missing.
  if (!model)
    return `No model: the endpoint ${baseUrl ?? 'of your provider'} is set; choose one of its models with "Select Model" (or set patchpilot.llm.model).`;
  const known = providerById(provider);
  if (!config.apiKey && (!baseUrl || !isLoopbackEndpoint(baseUrl)) && known?.needsKey !== false) {
    return `No API key${known ? ` for ${known.label}` : ''}: run "PatchPilot: Set API Key" (a model server on this machine needs none).`;
  }
  return undefined;
}
