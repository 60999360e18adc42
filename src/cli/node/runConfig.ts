/**
 * The settings of a run from the command line: the options `patchpilot run` and `patchpilot serve`
 * share (approval mode, limits, tests, model), turned into flag-scope settings and resolved with
 * the environment and the settings files (core/config), the workspace's test command detected when
 * none is set, and what the CLI cannot run refused.
 */
import { ConfigError, FLAG_SETTINGS, loadCliConfig, APPROVAL_MODES, wireOf, type SettingKey } from '../../core/config';
import type { Notifier } from '../../core/ports';
import { detectTestCommand, diskProbe, type DetectedTestCommand } from '../../core/testRuns';
import { UsageError } from '../io';

export const RUN_CONFIG_OPTIONS = {
  approve: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'max-steps': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost-usd': { type: 'string' },
  'test-cmd': { type: 'string', multiple: true },
  'no-detect-tests': { type: 'boolean' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'fast-model': { type: 'string' },
  'llm-command': { type: 'string' },
  'thinking-budget': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
} as const;

type StringOption =
  'approve' | 'max-steps' | 'max-tokens' | 'max-cost-usd' | 'provider' | 'base-url' | 'model' | 'fast-model' | 'llm-command' | 'thinking-budget';
export type RunConfigArgs = Partial<Record<StringOption, string>> & {
  'dry-run'?: boolean;
  'test-cmd'?: string[];
  'no-detect-tests'?: boolean;
  'trust-workspace'?: boolean;
};

export const stderrNotifier: Notifier = {
  info: (m) => process.stderr.write(`patchpilot: ${m}\n`),
  warn: (m) => process.stderr.write(`patchpilot: warning: ${m}\n`),
  error: (m) => process.stderr.write(`patchpilot: error: ${m}\n`),
};

/** The resolved settings, or a settings error to print (exit 2); a bad option value throws UsageError. */
export async function loadRunConfig(root: string, args: RunConfigArgs, notifier: Notifier): Promise<ReturnType<typeof loadCliConfig> | string> {
  const flags: Partial<Record<SettingKey, unknown>> = {};
  let mode = args.approve;
  if (args['dry-run']) {
    if (mode !== undefined && mode !== 'plan') throw new UsageError(`--dry-run is --approve plan; it cannot go with --approve ${mode}`);
    mode = 'plan';
  }
  if (mode !== undefined) {
    if (!(APPROVAL_MODES as readonly string[]).includes(mode)) throw new UsageError(`--approve must be one of ${APPROVAL_MODES.join(', ')}`);
    flags['patchpilot.approval.mode'] = mode;
  }
  const maxSteps = args['max-steps'];
  if (maxSteps !== undefined) {
    if (!/^\d+$/.test(maxSteps) || Number(maxSteps) < 1) throw new UsageError('--max-steps must be a positive integer');
    flags['patchpilot.limits.maxSteps'] = Number(maxSteps);
  }
  const maxTokens = args['max-tokens'];
  if (maxTokens !== undefined) {
    if (!/^\d+$/.test(maxTokens) || Number(maxTokens) < 1) throw new UsageError('--max-tokens must be a positive integer');
    flags['patchpilot.limits.maxTokens'] = Number(maxTokens);
  }
  const maxCost = args['max-cost-usd'];
  if (maxCost !== undefined) {
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(maxCost) || !(Number(maxCost) > 0)) throw new UsageError('--max-cost-usd must be a positive number (US dollars)');
    flags['patchpilot.limits.maxCostUsd'] = Number(maxCost);
  }
  if (args['test-cmd']) flags['patchpilot.tests.commands'] = args['test-cmd'];
  const thinkingBudget = args['thinking-budget'];
  if (thinkingBudget !== undefined) {
    if (!/^\d+$/.test(thinkingBudget) || Number(thinkingBudget) < 1024) throw new UsageError('--thinking-budget must be an integer of at least 1024 (tokens)');
    flags['patchpilot.llm.anthropic.thinkingBudget'] = Number(thinkingBudget);
  }
  for (const name of ['provider', 'base-url', 'model', 'fast-model', 'llm-command'] as const) {
    const value = args[name];
    if (value !== undefined) flags[FLAG_SETTINGS[name]!] = value;
  }

  let config;
  let detected: DetectedTestCommand | undefined;
  try {
    const load = () => loadCliConfig({ workspace: root, env: process.env, flags, trusted: args['trust-workspace'] === true });
    config = load();
    // No test command given or configured: the project's own (npm test, cargo test...), so tests run after every edit.
    if (config.settings.tests.commands.length === 0 && args['no-detect-tests'] !== true) {
      detected = await detectTestCommand(diskProbe(root));
      if (detected) {
        flags['patchpilot.tests.commands'] = [detected.command];
        config = load();
      }
    }
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  if (detected)
    notifier.info(`tests: ${detected.command} (detected from ${detected.source}: ${detected.reason ?? 'found there'}; --no-detect-tests to turn off)`);
  for (const w of config.warnings) notifier.warn(w);
  for (const i of config.ignored)
    notifier.warn(`ignored ${i.key} = ${JSON.stringify(i.value)} from ${i.origin}: ${i.reason}${i.userOnly ? '' : ' (--trust-workspace to use it)'}`);
  if (wireOf(config.settings.llm.provider) === 'vscode')
    return 'provider "vscode" (VS Code\'s own models) works only inside VS Code; choose another provider for the CLI';
  const { llm } = config.settings;
  // A model program needs no endpoint; Anthropic's defaults to the SDK's own.
  if (!llm.baseUrl && !llm.command && llm.provider !== 'anthropic')
    return 'no model endpoint: set --base-url, PATCHPILOT_BASE_URL or patchpilot.llm.baseUrl (or --llm-command)';
  if (!llm.model && !llm.command) return 'no model: set --model, PATCHPILOT_MODEL or patchpilot.llm.model';

  return config;
}
