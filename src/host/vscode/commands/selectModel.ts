/**
 * "PatchPilot: Select Model": the whole setup without settings.json, in one flow: provider (the
 * catalog), base URL (prefilled), the provider's key (SecretStorage; skipped for servers on this
 * machine, VS Code's models, and a key already saved), the model (the endpoint's list when it
 * answers, else typed) and the fast model. Nothing is written until the last step is answered, so
 * Escape at any step leaves the settings (and the demo model) as they were. With an endpoint already
 * set (Set Endpoint), its models come first and the provider list is "Change provider…" away.
 */
import * as vscode from 'vscode';
import { PROVIDERS, providerById, type ProviderInfo } from '../../../core/config';
import { errorMessage } from '../../../core/base';
import { listModels } from '../../../core/llm';
import type { ChatController } from '../chat/controller/chatController';
import type { DemoModel } from '../config/demoModel';
import type { HostConfig } from '../config/hostConfig';
import type { ProviderKeys } from '../config/secrets';
import { isLoopbackEndpoint } from '../config/settingsReader';
import { askBaseUrl } from './setEndpoint';

export interface ModelSetupDeps {
  config: HostConfig;
  keys: ProviderKeys;
  host: ChatController;
  log: vscode.LogOutputChannel;
  demo: DemoModel;
}

interface ModelItem extends vscode.QuickPickItem {
  id: string | undefined;
}

const STEPS = 4;
const title = (step: number, what: string) => `PatchPilot: Select Model (${step}/${STEPS}): ${what}`;

export async function selectModel(d: ModelSetupDeps, options: { changeProvider?: boolean } = {}): Promise<void> {
  const current = await currentSettings(d);
  // An endpoint already set (Set Endpoint, or an earlier setup): its models first, the provider list
  // one choice away. Only without one, or on "Change provider…", does the whole setup start.
  if (current.baseUrl && !d.demo.enabled && !options.changeProvider) {
    const picked = await pickAtCurrentEndpoint(d, current as { provider?: string; baseUrl: string; model?: string; fastModel?: string });
    if (picked !== CHANGE_PROVIDER) return;
  }
  const provider = await pickProvider(current.provider);
  if (!provider) return;
  const same = provider.id === current.provider;

  let baseUrl: string | undefined;
  if (provider.wire !== 'vscode') {
    const prefill = (same || (provider.id === 'custom' && !current.provider) ? current.baseUrl : undefined) ?? provider.defaultBaseUrl ?? '';
    baseUrl = await askBaseUrl({ title: title(2, `${provider.label} endpoint`), value: prefill, required: true });
    if (!baseUrl) return;
  }

  let apiKey: string | undefined;
  if (provider.wire !== 'vscode') {
    const store = d.keys.for(provider.id);
    apiKey = await store.get();
    if (!apiKey && provider.needsKey && !isLoopbackEndpoint(baseUrl)) {
      const typed = await vscode.window.showInputBox({
        title: title(3, `${provider.label} API key`),
        prompt: `Your ${provider.label} key${provider.keyEnvVar ? ` (the one known as ${provider.keyEnvVar})` : ''}. Stored in VS Code's secret storage, never in settings.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (typed === undefined) return;
      apiKey = typed.trim() || undefined;
      if (apiKey) await store.set(apiKey);
    }
  }

  const offered = await offeredModels(d, provider, baseUrl, apiKey, title(4, 'model'));
  if (offered === CANCELLED) return;
  const model = await pickModel(offered, { title: title(4, 'model'), current: same ? current.model : undefined, placeHolder: baseUrl ?? 'VS Code' });
  if (!model) return;
  const fast = await pickModel(offered, {
    title: title(4, 'fast model (summaries, insights)'),
    current: same ? current.fastModel : undefined,
    sameAs: model,
    placeHolder: 'a cheaper model for side jobs',
  });
  if (fast === undefined) return;

  const settings = vscode.workspace.getConfiguration();
  const write = (key: string, value: string | undefined) => settings.update(key, value, vscode.ConfigurationTarget.Global);
  await write('patchpilot.llm.provider', provider.id);
  if (baseUrl) await write('patchpilot.llm.baseUrl', baseUrl);
  await write('patchpilot.llm.model', model);
  await write('patchpilot.llm.fastModel', fast || undefined);
  // The user chose a real model: the demo (whose endpoint lists only itself) ends now.
  await d.demo.setEnabled(false);
  d.host.invalidate();
  void vscode.window.showInformationMessage(`PatchPilot: ${provider.label}, model ${model}${fast ? `, fast model ${fast}` : ''}.`);
}

const CHANGE_PROVIDER = Symbol('change provider');

/**
 * The model at the endpoint already set: its list (or a typed name when it cannot list), with
 * "Change provider…" last. Writes only the model; the endpoint, key and fast model stay as they are.
 */
async function pickAtCurrentEndpoint(
  d: ModelSetupDeps,
  current: { provider?: string; baseUrl: string; model?: string },
): Promise<string | typeof CHANGE_PROVIDER | undefined> {
  const provider = providerById(current.provider) ?? providerById('custom')!;
  const apiKey = provider.wire === 'vscode' ? undefined : await d.keys.for(provider.id).get();
  const listed = await offeredModels(d, provider, current.baseUrl, apiKey, `PatchPilot: Select Model at ${current.baseUrl}`);
  if (listed === CANCELLED) return undefined;
  const offered = listed ?? [];
  const CHANGE = { id: undefined, label: '$(server) Change provider…', description: 'another provider, endpoint or key' } satisfies ModelItem;
  const TYPE = { id: '', label: '$(edit) Type a model name…' } satisfies ModelItem;
  const items: ModelItem[] = [
    ...offered.map((m) => (m.id === current.model ? { ...m, description: `current${m.description ? ` · ${m.description}` : ''}` } : m)),
    TYPE,
    { id: undefined, label: '', kind: vscode.QuickPickItemKind.Separator },
    CHANGE,
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: `PatchPilot: Select Model at ${current.baseUrl}`,
    placeHolder: offered.length
      ? `${offered.length} model${offered.length === 1 ? '' : 's'} at ${current.baseUrl} (type to filter)`
      : `${current.baseUrl} did not list its models: type a name, or change the provider`,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  if (!pick) return undefined;
  if (pick === CHANGE) return CHANGE_PROVIDER;
  const model =
    pick.id || (await pickModel(undefined, { title: `PatchPilot: model at ${current.baseUrl}`, current: current.model, placeHolder: current.baseUrl }));
  if (!model) return undefined;
  await vscode.workspace.getConfiguration().update('patchpilot.llm.model', model, vscode.ConfigurationTarget.Global);
  await d.demo.setEnabled(false);
  d.host.invalidate();
  void vscode.window.showInformationMessage(`PatchPilot: model ${model} at ${current.baseUrl}.`);
  return model;
}

async function currentSettings(d: ModelSetupDeps) {
  try {
    return (await d.config.load()).config.settings.llm;
  } catch (err) {
    d.log.warn(`Select Model: the current settings are invalid (${errorMessage(err)}); starting from scratch`);
    return {} as { provider?: string; baseUrl?: string; model?: string; fastModel?: string };
  }
}

async function pickProvider(current: string | undefined): Promise<ProviderInfo | undefined> {
  const known = providerById(current);
  const ordered = known ? [known, ...PROVIDERS.filter((p) => p !== known)] : PROVIDERS;
  const pick = await vscode.window.showQuickPick(
    ordered.map((p) => ({ label: p.label, description: p === known ? 'current' : p.defaultBaseUrl, detail: p.hint, provider: p })),
    { title: title(1, 'provider'), placeHolder: 'Who serves the model? (type to filter)', matchOnDescription: true, ignoreFocusOut: true },
  );
  return pick?.provider;
}

const CANCELLED = Symbol('cancelled');

/**
 * Asks while an empty, busy picker says so: the picker that shows the answer opens in its place. (A
 * progress notification stays on screen at least 800 ms, behind the picker that opens as soon as the
 * list comes.) CANCELLED: the user closed it (Escape) before the answer came.
 */
async function whileAsking<T>(title: string, asking: string, task: () => Promise<T>): Promise<T | typeof CANCELLED> {
  const picker = vscode.window.createQuickPick();
  picker.title = title;
  picker.placeholder = asking;
  picker.busy = true;
  picker.enabled = false;
  picker.ignoreFocusOut = true;
  const closed = new Promise<typeof CANCELLED>((resolve) => picker.onDidHide(() => resolve(CANCELLED)));
  picker.show();
  try {
    return await Promise.race([task(), closed]);
  } finally {
    picker.dispose();
  }
}

/** The endpoint's models, or VS Code's; undefined when it cannot say (then the name is typed); CANCELLED: Escape while it was asked. */
async function offeredModels(
  d: ModelSetupDeps,
  provider: ProviderInfo,
  baseUrl: string | undefined,
  apiKey: string | undefined,
  title: string,
): Promise<ModelItem[] | undefined | typeof CANCELLED> {
  try {
    if (provider.wire === 'vscode') {
      const models = await vscode.lm.selectChatModels();
      if (!models.length)
        void vscode.window.showWarningMessage(
          'PatchPilot: VS Code offers no language models yet: install and sign in to an extension that provides them (GitHub Copilot, for one).',
        );
      return models.map((m) => ({ id: m.id, label: m.id, description: `${m.name} · ${m.vendor} · ${m.maxInputTokens.toLocaleString('en-US')} tokens` }));
    }
    const ids = await whileAsking(title, `PatchPilot: asking ${baseUrl} for its models…`, () =>
      listModels({ baseUrl: baseUrl!, apiKey, wire: provider.wire === 'anthropic' ? 'anthropic' : 'openai' }),
    );
    return ids === CANCELLED ? CANCELLED : ids.map((id) => ({ id, label: id }));
  } catch (err) {
    d.log.warn(`Select Model: no model list from ${baseUrl ?? 'VS Code'}: ${errorMessage(err)}`);
    return undefined;
  }
}

/**
 * A model from the list (with "type a name" for models the list leaves out), or typed. With `sameAs`
 * (the fast model), "" means the same model as the agent's. Undefined: the user cancelled.
 */
async function pickModel(
  offered: ModelItem[] | undefined,
  o: { title: string; current?: string; sameAs?: string; placeHolder: string },
): Promise<string | undefined> {
  if (offered?.length) {
    const TYPE = { id: undefined, label: '$(edit) Type a model name…' } satisfies ModelItem;
    const SAME = { id: '', label: `Same as the model (${o.sameAs})` } satisfies ModelItem;
    const items: ModelItem[] = [
      ...(o.sameAs ? [SAME] : []),
      ...offered.map((m) => (m.id === o.current ? { ...m, description: `current${m.description ? ` · ${m.description}` : ''}` } : m)),
      TYPE,
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: o.title,
      placeHolder: `${offered.length} model${offered.length === 1 ? '' : 's'} at ${o.placeHolder}`,
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    if (pick.id !== undefined) return pick.id;
  }
  const typed = await vscode.window.showInputBox({
    title: o.title,
    value: o.current ?? '',
    prompt: o.sameAs ? `Leave empty to use ${o.sameAs} for side jobs too.` : 'The model name as the endpoint knows it (its list did not answer).',
    ignoreFocusOut: true,
    validateInput: (v) => (o.sameAs || v.trim() ? undefined : 'Type a model name.'),
  });
  return typed === undefined ? undefined : typed.trim();
}
