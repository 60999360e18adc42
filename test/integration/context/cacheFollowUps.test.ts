// A prompt that caches: three goals of one chat, the workspace changed between them (a file edited
// and left uncommitted, a new top-level file, a commit). The real ModelClient, Orchestrator and tools
// against the scripted server, which reports as cached the prefix each request shares with the one
// before (as a provider's prompt cache would). Every request's messages start with the previous
// request's, byte for byte; the tool list never changes; the live state rides in each goal.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import { ModelClient } from '../../../src/core/llm';
import { estimateTokens } from '../../../src/core/llm/contextWindows';
import { Orchestrator, type RunOutcome } from '../../../src/core/orchestrator';
import { createToolRegistry } from '../../../src/core/tools';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { cachePrefixReuse } from '../../support/cachePrefix';
import { ScriptedModelServer, type ScriptedReply } from '../../support/scriptedModel';

/** Each goal: read a file, then finish. */
const STEPS: ScriptedReply['toolCalls'][] = [
  [{ name: 'read_file', arguments: { path: 'src/app.ts' } }],
  [{ name: 'finish', arguments: { summary: 'looked' } }],
];

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

describe('a prompt that caches across a chat whose files change', () => {
  test('three goals: each request begins with the one before, byte for byte; cached tokens are reported', async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cache-')));
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...a], { cwd: root, stdio: 'pipe' });
    writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
    execFileSync('mkdir', ['-p', path.join(root, 'src')]);
    writeFileSync(path.join(root, 'src', 'app.ts'), 'export const a = 1;\n'.repeat(40));
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    let step = 0;
    let previous = '';
    const server = await ScriptedModelServer.start({
      turns: [],
      routes: [
        {
          match: () => true,
          reply: (body) => {
            const sent = JSON.stringify(body.messages);
            const cached = estimateTokens(sent.slice(0, commonPrefix(previous, sent)));
            previous = sent;
            const toolCalls = STEPS[step++ % STEPS.length];
            return { text: 'ok', toolCalls, usage: { promptTokens: estimateTokens(sent), completionTokens: 5, cachedTokens: cached } };
          },
        },
      ],
    });
    try {
      const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
      settings.approval.mode = 'auto-edit';
      const events: AgentEvent[] = [];
      const orchestrator = new Orchestrator({
        root,
        fs: new NodeWorkspaceFs(root),
        settings,
        model: new ModelClient({ baseUrl: server.baseUrl, model: 'scripted-model' }),
        tools: createToolRegistry({}),
        approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: false }) },
        tasks: new NodeTaskRunner(),
        onEvent: (e) => events.push(e),
      });
      const outcomes: RunOutcome[] = [];
      outcomes.push(await orchestrator.run('look at the app'));
      writeFileSync(path.join(root, 'src', 'app.ts'), 'export const a = 2;\n'.repeat(40));
      writeFileSync(path.join(root, 'NOTES.md'), 'new\n');
      outcomes.push(await orchestrator.run('look again', { earlier: outcomes[0]!.transcript }));
      git('add', '-A');
      git('commit', '-q', '-m', 'two');
      outcomes.push(await orchestrator.run('and once more', { earlier: outcomes[1]!.transcript }));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['finished', 'finished', 'finished'],
      );

      const requests = server.chatRequests.map((q) => q.body);
      assert.equal(requests.length, 6);
      for (const body of requests) assert.deepEqual(body.tools, requests[0]!.tools, 'the tool list never changes');
      for (let i = 1; i < requests.length; i++) {
        const before = JSON.stringify(requests[i - 1]!.messages).slice(0, -1);
        const now = JSON.stringify(requests[i]!.messages);
        assert.ok(now.startsWith(before), `request ${i + 1} begins with request ${i}, byte for byte (they part at ${commonPrefix(before, now)})`);
      }
      // The state travels in each goal: the second goal names the uncommitted file and the new top-level entry.
      const goals = requests[5]!.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content);
      assert.equal(goals.length, 3);
      assert.match(
        goals[1],
        /<workspace-state>\ngit: branch main at [0-9a-f]{12}; 2 file\(s\) with uncommitted changes[^\n]*src\/app\.ts[\s\S]*top level: [^\n]*NOTES\.md[\s\S]*look again$/,
      );
      assert.doesNotMatch(requests[0]!.messages[0].content, /branch main|uncommitted|NOTES/);

      const reuse = cachePrefixReuse(requests.map((b) => b.messages));
      assert.ok(reuse.share > 0.6, `cacheable share ${reuse.share}`);
      const cached = outcomes.reduce((n, o) => n + o.usage.cachedTokens, 0);
      assert.ok(cached > 0 && outcomes[2]!.usage.cachedTokens > 0, 'cached prompt tokens are counted per run');
      const finished = events.filter((e) => e.type === 'run/finished');
      assert.ok(finished.every((e) => e.type === 'run/finished' && (e.usage?.reasoning.cachedTokens ?? 0) > 0));
      console.log(`cacheable prefix share over 3 goals: ${(reuse.share * 100).toFixed(1)}% of ${reuse.promptTokens} prompt tokens`);
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
