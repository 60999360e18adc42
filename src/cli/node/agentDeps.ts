import path from 'node:path';
import type { PatchPilotSettings, ResolvedConfig } from '../../core/config';
import { openHistoryStore, type HistoryStore } from '../../core/history';
import { ModelClient } from '../../core/llm';
import { PatchManager } from '../../core/patch';
import { createCommandPolicy, TestDefinitionGuard } from '../../core/policy/command';
import { probeSandbox } from '../../core/policy/exec';
import { safeFetch } from '../../core/policy/network';
import { createIgnoreFilter } from '../../core/policy/path';
import type { OrchestratorDeps } from '../../core/orchestrator';
import { createToolRegistry } from '../../core/tools';
import { createCommandExecutor, createCommandGuard, createPathPolicy } from '../../core/tools/policyAdapters';
import type { Approver, Notifier } from '../../core/ports';
import type { AgentEvent } from '../../protocol/agentEvents';
import { NodeTaskRunner } from './nodeTaskRunner';

export interface AgentHostOptions {
  root: string;
  config: ResolvedConfig;
  approver: Approver;
  notifier: Notifier;
  onEvent(e: AgentEvent): void;
}

/**
 * Wires the core for a headless run: model client, patch engine, policies (command, path, network)
 * with the sandboxed executor, the history store. The policy lists arrive merged and already
 * filtered by workspace trust (resolveSettings), so they are passed as one trusted layer.
 */
export async function createAgentDeps(o: AgentHostOptions): Promise<{ deps: OrchestratorDeps; history?: HistoryStore }> {
  const { settings } = o.config;
  const policy = settings.policy;
  const ignore = createIgnoreFilter(o.root);
  const testGuard = TestDefinitionGuard.capture(o.root);
  const commandPolicy = await createCommandPolicy({
    user: { allow: policy.allow, ask: policy.ask, deny: policy.deny },
    trusted: true,
    isIgnoredPath: (abs) => ignore.isIgnored(abs),
    testGuard,
  });
  for (const problem of commandPolicy.settingsErrors) o.notifier.warn(problem);
  // Say it plainly up front, not only inside refused tool results: without bubblewrap, commands run unconfined.
  const sandbox = probeSandbox();
  if (!sandbox.available) o.notifier.warn(sandbox.message);

  let history: HistoryStore | undefined;
  try {
    const fromWorkspace = o.config.sources['patchpilot.history.path']?.scope === 'workspace';
    history = await openHistoryStore({
      workspace: o.root,
      path: settings.history.path,
      allowOutsideWorkspace: !fromWorkspace,
      createStateFolder: true,
      // A worker: saving a big history (a 100k-row database exports in ~0.3-0.4 s) must not stall the
      // stream and Ctrl-C of a long interactive session (bench:agent, "longest loop block").
      mode: 'worker',
      notifier: o.notifier,
    });
    for (const w of history.warnings) o.notifier.warn(w.message);
  } catch (err) {
    o.notifier.warn(`running without history: ${err instanceof Error ? err.message : String(err)}`);
  }

  const model = new ModelClient({
    baseUrl: settings.llm.baseUrl!,
    apiKey: o.config.apiKey,
    model: settings.llm.model!,
    fastModel: settings.llm.fastModel,
  });
  const web: OrchestratorDeps['web'] = (url, signal) => safeFetch(url, { signal, settings: { fetchAllowHosts: policy.fetchAllowHosts, allowPrivateNetwork: policy.allowPrivateNetwork } });
  const guard = createCommandGuard(o.root, policy, settings.history.path);
  const deps: OrchestratorDeps = {
    root: o.root,
    settings,
    model,
    tools: createToolRegistry({ commands: true, web: true, history: !!history }),
    approver: o.approver,
    // Both child runners get the same environment allowlist (policy/exec/childEnv.ts) plus the user's names.
    tasks: new NodeTaskRunner({ envAllow: policy.envAllow, guard: { root: o.root, ...guard } }),
    history,
    patches: new PatchManager({ root: o.root }),
    pathPolicy: createPathPolicy(o.root, { protectedPaths: policy.protectedPaths, denyPaths: policy.denyPaths }, (rel, isDir) => ignore.isIgnored(rel, isDir)),
    commandPolicy,
    testGuard,
    exec: createCommandExecutor(o.root, { guard, envAllow: policy.envAllow }),
    web,
    onEvent: o.onEvent,
  };
  return { deps, history };
}

export function relativeToCwd(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel === '' ? '.' : rel.startsWith('..') ? p : rel;
}
