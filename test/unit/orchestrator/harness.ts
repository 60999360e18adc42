// A real run: scripted model server over HTTP, the real ModelClient, real git repo in a temp dir,
// real PatchManager, NodeTaskRunner, and an in-process sql.js history store on disk.
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { openHistoryStore, type HistoryStore } from '../../../src/core/history';
import { ModelClient, type ModelClientConfig } from '../../../src/core/llm';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { Orchestrator, type OrchestratorDeps, type RunOutcome } from '../../../src/core/orchestrator';
import { createToolRegistry } from '../../../src/core/tools';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';
import { ScriptedApprover, gitInit, tempWorkspace } from '../tools/helpers';

export const BUGGY = {
  'add.js': 'exports.add = (a, b) => a - b;\n',
  'add.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('./add');\ntest('adds', () => assert.equal(add(2, 2), 4));\n",
};
export const FIX = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n';
export const TEST_CMD = `${JSON.stringify(process.execPath)} --test add.test.js`;

export interface Harness {
  root: string;
  server: ScriptedModelServer;
  history: HistoryStore;
  events: AgentEvent[];
  approver: ScriptedApprover;
  outcome: RunOutcome;
  /** Messages the model received on request i. */
  messages(i: number): { role: string; content: string | null; tool_calls?: { id: string; function: { name: string } }[]; tool_call_id?: string }[];
}

export async function runScripted(
  turns: ScriptedTurn[],
  options: {
    files?: Record<string, string>;
    settings?: (s: PatchPilotSettings) => void;
    approver?: ScriptedApprover;
    deps?: Partial<OrchestratorDeps>;
    /** Extra model client settings (fastModel, ...). */
    model?: Partial<ModelClientConfig>;
    signal?: AbortSignal;
    goal?: string;
    inspect?: (h: Omit<Harness, 'outcome'>) => Promise<void> | void;
  } = {},
): Promise<Harness> {
  const ws = tempWorkspace(options.files ?? BUGGY);
  gitInit(ws.root);
  const server = await ScriptedModelServer.start(turns);
  const history = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    settings.approval.mode = 'auto-edit';
    options.settings?.(settings);
    const events: AgentEvent[] = [];
    const approver = options.approver ?? new ScriptedApprover();
    const model = new ModelClient(
      { baseUrl: server.baseUrl, model: 'scripted-model', idleTimeoutMs: 3_000, firstChunkTimeoutMs: 3_000, ...options.model },
      { random: () => 0 },
    );
    if (options.model?.fastModel) settings.llm.fastModel = options.model.fastModel;
    const orchestrator = new Orchestrator({
      root: ws.root,
      settings,
      model,
      tools: createToolRegistry({ history: true }),
      approver,
      tasks: new NodeTaskRunner(),
      history,
      patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }),
      fs: new NodeWorkspaceFs(ws.root),
      onEvent: (e) => events.push(e),
      ...options.deps,
    });
    const outcome = await orchestrator.run(options.goal ?? 'make the add test pass', { signal: options.signal });
    const h: Harness = {
      root: ws.root,
      server,
      history,
      events,
      approver,
      outcome,
      messages: (i) => server.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]!.body.messages,
    };
    await options.inspect?.(h);
    return h;
  } finally {
    await history.close();
    await server.close();
    ws.cleanup();
  }
}

export const call = (name: string, args: Record<string, unknown> | string, id?: string) => ({ name, arguments: args, ...(id ? { id } : {}) });
