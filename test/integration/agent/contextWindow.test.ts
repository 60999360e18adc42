// The window in force, end to end: the built CLI against a scripted endpoint whose /v1/models reports
// a 32k window for a model no catalog knows. Before, such a model got the 8,192-token fallback and a
// 40-step run compacted every few steps; now the run uses the endpoint's window, says so, and keeps
// its earlier messages byte-stable so a provider's prompt cache can serve them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogPrice } from '../../../src/core/llm/catalogPrices';
import { estimateTokens } from '../../../src/core/llm/contextWindows';
import { costOf } from '../../../src/core/llm/prices';
import { cachePrefixReuse } from '../../support/cachePrefix';
import type { Script } from '../../support/scriptedModel';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

const MODEL = 'acme-private-coder-v7';
const WINDOW = 32_768;
const STEPS = 40;

/** 40 source files of about 650 tokens each: reading them all does not fit one 32k window. */
function sources(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < STEPS; i++) {
    files[`src/f${i}.ts`] = Array.from({ length: 55 }, (_, l) => `export const v${i}_${l} = ${l * 7}; // line ${l} of module ${i}`).join('\n') + '\n';
  }
  return files;
}

function script(): Script {
  const turns = Array.from({ length: STEPS }, (_, i) => ({ reply: { text: `Reading f${i}.`, toolCalls: [call('read_file', { path: `src/f${i}.ts` })] } }));
  turns.push({ reply: { text: 'Done.', toolCalls: [call('finish', { summary: 'read everything' })] } });
  return {
    modelId: MODEL,
    modelFields: { context_length: WINDOW },
    turns,
    // A context summary (a request without tools) is answered whenever it comes, outside the turn order.
    routes: [
      {
        match: (body) => !Array.isArray(body.tools) || body.tools.length === 0,
        reply: () => ({ text: 'Read src/f0.ts to src/f30.ts; each exports numbered constants.' }),
      },
    ],
  };
}

describe('patchpilot run: the window the endpoint reports', { skip: skipWithoutBuild }, () => {
  test('a 40-step run on an unknown model with a 32k window: over 8k, under the window, at most one compaction, a stable prefix', async () => {
    await withRepo(
      script(),
      async (root, server) => {
        const r = await runCli([
          '--workspace',
          root,
          '--base-url',
          server.baseUrl,
          '--model',
          MODEL,
          '--goal',
          'read every module',
          '--approve',
          'auto-edit',
          '--max-steps',
          '45',
          '--json',
        ]);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const all = events(r.stdout);
        const started = all.find((e) => e.type === 'run/started')!;
        assert.equal(started.contextWindow, WINDOW);
        assert.equal(started.contextWindowNote, "context: 32,768 tokens (from the endpoint's /v1/models)");

        const agent = server.chatRequests.filter((q) => Array.isArray(q.body.tools) && q.body.tools.length > 0);
        assert.equal(agent.length, STEPS + 1);
        const sizes = agent.map((q) => estimateTokens(JSON.stringify({ messages: q.body.messages, tools: q.body.tools })));
        assert.ok(Math.max(...sizes) > 8_192, `no request went past 8k tokens: ${Math.max(...sizes)}`);
        assert.ok(Math.max(...sizes) < WINDOW, `a request went past the window: ${Math.max(...sizes)}`);
        const compactions = all.filter((e) => e.type === 'context/summarized');
        assert.ok(compactions.length <= 1, `${compactions.length} compactions`);

        // Between two compactions every request starts with the whole previous one.
        const reuse = cachePrefixReuse(agent.map((q) => q.body.messages));
        const rewritten = reuse.perRequest.filter((p, i) => i > 0 && p.reusable < reuse.perRequest[i - 1]!.tokens - 2);
        assert.ok(rewritten.length <= compactions.length, `${rewritten.length} requests rewrote earlier messages`);
      },
      sources(),
    );
  });

  test("cached prompt tokens: reported in the usage line and billed at the catalog's cached rate", async () => {
    const usage = [
      { promptTokens: 10_000, completionTokens: 100 },
      { promptTokens: 12_000, completionTokens: 50, cachedTokens: 9_000 },
    ];
    const turns = [
      { reply: { toolCalls: [call('read_file', { path: 'src/f0.ts' })], usage: usage[0] } },
      { reply: { toolCalls: [call('finish', { summary: 'done' })], usage: usage[1] } },
    ];
    await withRepo(
      { turns, modelId: 'deepseek-chat' },
      async (root, server) => {
        const r = await runCli(['--workspace', root, '--base-url', server.baseUrl, '--model', 'deepseek-chat', '--goal', 'read f0', '--approve', 'auto-edit']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /patchpilot: auto-edit mode, model deepseek-chat, context: [\d,]+ tokens \(from the catalog\)/);
        const price = catalogPrice('deepseek-chat', server.baseUrl)!;
        assert.ok(price.cachedInput !== undefined && price.cachedInput < price.input);
        const cost = usage.reduce((n, u) => n + costOf({ ...u, estimated: false }, price)!, 0);
        assert.match(
          r.stderr,
          new RegExp(`tokens: deepseek-chat 22,000 in \\(9,000 cached\\) / 150 out \\(2 requests\\); cost \\$${cost.toFixed(4).replace('.', '\\.')}`),
        );
      },
      sources(),
    );
  });

  test("the user's settings win: the window without asking the endpoint, the price without the catalog", async () => {
    const settings = { 'patchpilot.llm.contextWindows': { [MODEL]: 16_384 }, 'patchpilot.llm.prices': { [MODEL]: { input: 1, cachedInput: 0.1, output: 2 } } };
    const turns = [
      { reply: { toolCalls: [call('finish', { summary: 'done' })], usage: { promptTokens: 1_000_000, completionTokens: 500_000, cachedTokens: 400_000 } } },
    ];
    await withRepo(
      { turns, modelId: MODEL, modelFields: { context_length: WINDOW } },
      async (root, server) => {
        const r = await runCli([
          '--workspace',
          root,
          '--base-url',
          server.baseUrl,
          '--model',
          MODEL,
          '--goal',
          'g',
          '--approve',
          'auto-edit',
          '--trust-workspace',
        ]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /context: 16,384 tokens \(from your setting\)/);
        assert.deepEqual(
          server.requests.filter((q) => !q.path.endsWith('/chat/completions')),
          [],
          'the endpoint was asked for a window the user set',
        );
        // 600k * $1 + 400k * $0.1 + 500k * $2 per 1M tokens
        assert.match(r.stderr, /1,000,000 in \(400,000 cached\) \/ 500,000 out \(1 request\); cost \$1\.6400/);
      },
      { ...sources(), '.vscode/settings.json': JSON.stringify(settings) },
    );
  });
});
