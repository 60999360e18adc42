/**
 * (c) Share of prompt tokens a provider's prompt cache could serve over a 40-step run, by window:
 * the real ModelClient, context manager and tools against the scripted server, whose /v1/models
 * reports the window (`context_length`) for a model no catalog knows. Each step reads a file of
 * ~650 tokens; a compaction (when the conversation passes 75% of the window) rewrites what follows
 * the goal, and the prefix after it is lost for that request. Measured with test/support/cachePrefix.ts:
 * the longest common prefix of consecutive requests' serialized messages, in the project's token estimate.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../src/core/config/settings';
import { ModelClient } from '../../src/core/llm';
import { estimateTokens } from '../../src/core/llm/contextWindows';
import { Orchestrator } from '../../src/core/orchestrator';
import { createToolRegistry } from '../../src/core/tools';
import { NodeWorkspaceFs } from '../../src/host/node/nodeWorkspaceFs';
import { NodeTaskRunner } from '../../src/cli/node/nodeTaskRunner';
import { cachePrefixReuse } from '../../test/support/cachePrefix';
import { ScriptedModelServer, type Script, type ScriptedTurn } from '../../test/support/scriptedModel';

const STEPS = 40;
const MODEL = 'bench-unlisted-model';

export interface CacheRow {
  window: string;
  compactions: string;
  largest: string;
  prompt: string;
  reusable: string;
  share: string;
}

function workspace(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-cache-'));
  mkdirSync(path.join(root, 'src'));
  for (let i = 0; i < STEPS; i++) {
    writeFileSync(
      path.join(root, 'src', `f${i}.ts`),
      Array.from({ length: 55 }, (_, l) => `export const v${i}_${l} = ${l * 7}; // line ${l} of module ${i}`).join('\n') + '\n',
    );
  }
  const git = (...a: string[]) => execFileSync('git', a, { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'bench');
  return root;
}

function script(window: number): Script {
  const turns: ScriptedTurn[] = Array.from({ length: STEPS }, (_, i) => ({
    reply: { text: `Reading f${i}.`, toolCalls: [{ name: 'read_file', arguments: { path: `src/f${i}.ts` } }] },
  }));
  turns.push({ reply: { text: 'Done.', toolCalls: [{ name: 'finish', arguments: { summary: 'read everything' } }] } });
  return {
    modelId: MODEL,
    modelFields: { context_length: window },
    turns,
    routes: [
      {
        match: (body) => !Array.isArray(body.tools) || body.tools.length === 0,
        reply: () => ({ text: 'Read the modules so far; each exports numbered constants.' }),
      },
    ],
  };
}

async function measureWindow(window: number): Promise<CacheRow> {
  const root = workspace();
  const server = await ScriptedModelServer.start(script(window));
  try {
    const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
    settings.approval.mode = 'auto-edit';
    settings.limits.maxSteps = STEPS + 5;
    let compactions = 0;
    const orchestrator = new Orchestrator({
      root,
      fs: new NodeWorkspaceFs(root),
      settings,
      model: new ModelClient({ baseUrl: server.baseUrl, model: MODEL }),
      tools: createToolRegistry({}),
      approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: false }) },
      tasks: new NodeTaskRunner(),
      onEvent: (e) => void (e.type === 'context/summarized' && compactions++),
    });
    const outcome = await orchestrator.run('read every module');
    if (outcome.status !== 'finished') throw new Error(`${window}: the run ended ${outcome.status}: ${outcome.reason}`);
    const agent = server.chatRequests.filter((q) => Array.isArray(q.body.tools) && q.body.tools.length > 0);
    const reuse = cachePrefixReuse(agent.map((q) => q.body.messages));
    const largest = Math.max(...agent.map((q) => estimateTokens(JSON.stringify(q.body.messages))));
    const n = (x: number) => x.toLocaleString('en-US');
    return {
      window: n(window),
      compactions: String(compactions),
      largest: n(largest),
      prompt: n(reuse.promptTokens),
      reusable: n(reuse.reusableTokens),
      share: `${(reuse.share * 100).toFixed(1)}%`,
    };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The table, printed as Markdown (copied into README). */
export async function cachePrefixTable(log: (m: string) => void): Promise<string> {
  const rows: CacheRow[] = [];
  for (const window of [8_192, 32_768, 131_072]) {
    rows.push(await measureWindow(window));
    log(`  cache prefix at a ${window}-token window: ${rows.at(-1)!.share}`);
  }
  const head: CacheRow = {
    window: 'window (tokens)',
    compactions: 'compactions',
    largest: 'largest request',
    prompt: 'prompt tokens (40 steps)',
    reusable: 'reusable as a cached prefix',
    share: 'share',
  };
  const keys = Object.keys(head) as (keyof CacheRow)[];
  const width = (k: keyof CacheRow) => Math.max(...[head, ...rows].map((r) => r[k].length));
  const line = (r: CacheRow) => `| ${keys.map((k) => r[k].padEnd(width(k))).join(' | ')} |`;
  return [line(head), `|${keys.map((k) => '-'.repeat(width(k) + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
