// Memory, skills, summaries and resume through the built CLI (`patchpilot run`), end to end: the
// binary, a real git repository, the scripted model server checking what reaches the model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

const BUNDLED = path.resolve(__dirname, '../../../skills');
const base = (root: string, url: string) => ['--workspace', root, '--base-url', url, '--model', 'scripted-model'];
type Body = { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] };
const systemOf = (body: unknown) => (body as Body).messages[0]!.content ?? '';
const goalOf = (body: unknown) => (body as Body).messages.find((m) => m.role === 'user')?.content ?? '';
const toolResults = (stdout: string) => events(stdout).filter((e) => e.type === 'tool/finished') as unknown as { name: string; ok: boolean; output: string }[];

describe('patchpilot run: memory, skills, summaries and resume', { skip: skipWithoutBuild }, () => {
  test('memory: remember writes MEMORY.md and the journal; the next run reads the file as the user left it; a deleted fact stays deleted', async () => {
    const first = [
      { reply: { toolCalls: [call('remember', { fact: 'Tests need TZ=UTC.' }), call('remember', { fact: 'The add() helper lives in add.js.' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'noted two facts' })] } },
    ];
    await withRepo(first, async (root, server) => {
      const r1 = await runCli([...base(root, server.baseUrl), '--goal', 'learn the repo', '--approve', 'auto-edit', '--json']);
      assert.equal(r1.code, 0, r1.stderr);
      assert.deepEqual(
        toolResults(r1.stdout).map((t) => [t.name, t.ok]),
        [
          ['remember', true],
          ['remember', true],
          ['finish', true],
        ],
      );
      const memoryFile = path.join(root, '.patchpilot/MEMORY.md');
      assert.match(readFileSync(memoryFile, 'utf8'), /- Tests need TZ=UTC\.\n- The add\(\) helper lives in add\.js\.\n$/);
      const [day] = readdirSync(path.join(root, '.patchpilot/memory'));
      assert.match(
        readFileSync(path.join(root, '.patchpilot/memory', day!), 'utf8'),
        /- \[\d\d:\d\d\] Tests need TZ=UTC\.\n {2}- while working on: learn the repo\n/,
      );

      // The user deletes one fact and adds a line of their own.
      writeFileSync(memoryFile, '# Memory\n\n- The add() helper lives in add.js.\n- Never commit to main.\n');
      const second = [
        {
          reply: { toolCalls: [call('remember', { fact: 'tests need TZ=UTC' }), call('remember', { fact: 'Releases are tagged vX.Y.Z.' })] },
          check: ({ body }: { body: unknown }) => {
            // The memory rides with the goal (goalNotes.ts), never in the system prompt.
            const goal = goalOf(body);
            if (!goal.includes('- Never commit to main.') || !goal.includes('- The add() helper lives in add.js.'))
              return "MEMORY.md (as the user left it) is not in the goal's message";
            if (goal.includes('TZ=UTC') || systemOf(body).includes('TZ=UTC')) return 'the deleted fact reached the prompt';
          },
        },
        { reply: { toolCalls: [call('finish', { summary: 'ok' })] } },
      ];
      const again = await import('../../support/scriptedModel').then((m) => m.ScriptedModelServer.start(second));
      try {
        const r2 = await runCli([...base(root, again.baseUrl), '--goal', 'more', '--approve', 'auto-edit', '--json']);
        assert.equal(r2.code, 0, r2.stderr);
        assert.deepEqual(again.mismatches, []);
        const [deleted, added] = toolResults(r2.stdout);
        assert.equal(deleted!.ok, false);
        assert.match(deleted!.output, /the user deleted this fact from \.patchpilot\/MEMORY\.md after it was saved on \d{4}-\d{2}-\d{2}, so it stays deleted/);
        assert.equal(added!.ok, true);
        assert.equal(
          readFileSync(memoryFile, 'utf8'),
          '# Memory\n\n- The add() helper lives in add.js.\n- Never commit to main.\n- Releases are tagged vX.Y.Z.\n',
        );
      } finally {
        await again.close();
      }
    });
  });

  test('memory without a terminal in ask mode: the write is refused like any other, nothing written', async () => {
    const turns = [{ reply: { toolCalls: [call('remember', { fact: 'x is y' })] } }, { reply: { toolCalls: [call('finish', { summary: 'ok' })] } }];
    await withRepo(turns, async (root, server) => {
      const r = await runCli([...base(root, server.baseUrl), '--goal', 'g', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(toolResults(r.stdout)[0]!.output, /not done, nobody could approve it: remember: x is y/);
      assert.equal(existsSync(path.join(root, '.patchpilot/MEMORY.md')), false);
    });
  });

  test('skills: bundled ones listed by name, a workspace skill overrides one, always-on skills in full, load_skill, scripts go through the command policy', async () => {
    const turns = [
      {
        reply: { toolCalls: [call('load_skill', { name: 'write-tests' }), call('load_skill', { name: 'review-before-finish' })] },
        check: ({ body }: { body: unknown }) => {
          const system = systemOf(body);
          for (const line of [
            '- fix-failing-tests: Make failing tests pass',
            '- refactor-safely: ',
            '- review-before-finish: Review the whole diff',
            '- write-tests: Our tests use node:test only.',
            '## Skill house-style (always on)\nTwo spaces, single quotes.',
          ]) {
            if (!system.includes(line)) return `the system prompt lacks ${JSON.stringify(line)}`;
          }
          if (!(body as Body).tools?.some((t) => t.function.name === 'load_skill')) return 'load_skill is not offered';
        },
      },
      { reply: { toolCalls: [call('run_command', { command: `sh ${BUNDLED}/review-before-finish/scripts/review-diff.sh` })] } },
      { reply: { toolCalls: [call('finish', { summary: 'reviewed' })] } },
    ];
    const files = {
      'add.js': 'exports.add = (a, b) => a + b;\n',
      '.patchpilot/skills/write-tests/SKILL.md':
        '---\nname: write-tests\ndescription: Our tests use node:test only.\n---\nPut tests next to the code as x.test.js.\n',
      '.patchpilot/skills/house-style/SKILL.md': '---\nname: house-style\ndescription: Code style.\nalways: true\n---\nTwo spaces, single quotes.\n',
    };
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli([...base(root, server.baseUrl), '--goal', 'add a test', '--approve', 'auto', '--json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const results = toolResults(r.stdout);
        // The two loads ran in parallel (read-only): their results arrive in either order.
        const own = results.find((t) => t.output.startsWith('Skill write-tests'));
        const bundled = results.find((t) => t.output.startsWith('Skill review-before-finish'));
        const script = results.find((t) => t.name === 'run_command');
        assert.match(
          own!.output,
          /^Skill write-tests \(workspace; folder: \.patchpilot\/skills\/write-tests\)\n\nPut tests next to the code as x\.test\.js\.$/,
        );
        assert.match(
          bundled!.output,
          new RegExp(
            `^Skill review-before-finish \\(bundled; folder: ${BUNDLED.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/review-before-finish\\)\nFiles in its folder: scripts/review-diff\\.sh`,
          ),
        );
        // Not on the allowlist: asked (refused without a terminal), with the policy's reason; never run unasked.
        assert.equal(script!.ok, false);
        assert.match(script!.output, /not done, nobody could approve it: sh .*review-diff\.sh/);
        const asked = events(r.stdout).find((e) => e.type === 'approval/needed') as { kind: string } | undefined;
        assert.equal(asked?.kind, 'command');
      },
      files,
    );
  });

  test('a run over its budget summarizes older work with the fast model and prints it; resume continues the session after a restart', async () => {
    const big = (n: number) => Array.from({ length: 60 }, (_, i) => `export const value${n}_${i} = ${i}; // some padding text for the line`).join('\n');
    const files: Record<string, string> = { '.vscode/settings.json': JSON.stringify({ 'patchpilot.context.maxTokens': 5000 }) };
    for (let i = 0; i < 6; i++) files[`m${i}.js`] = big(i);
    const turns = [
      ...Array.from({ length: 6 }, (_, i) => ({ reply: { toolCalls: [call('read_file', { path: `m${i}.js` })] } })),
      { reply: { toolCalls: [call('finish', { summary: 'The magic value is value3_7.' })] } },
    ];
    // The fast model answers every summary request, whenever it comes (modelReplies).
    const script = { turns, modelReplies: { 'fast-model': { text: 'Read m0.js to m4.js: each exports value<N>_<i> constants.' } } };
    await withRepo(
      script,
      async (root, server) => {
        const r = await runCli([...base(root, server.baseUrl), '--fast-model', 'fast-model', '--goal', 'find the magic value']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /\[context summarized: [\d.]+k -> [\d.]+k? tokens \(\d+ messages by fast-model; (.*; )?budget 5k\)\]/);
        for (const q of server.chatRequests.filter((q) => q.body.model === 'scripted-model')) {
          const tokens = Math.ceil((JSON.stringify(q.body.messages).length + JSON.stringify(q.body.tools).length) / 4);
          assert.ok(tokens <= 5000, `a request of ${tokens} tokens`);
        }
        const shown = await runCli(['show', 'last', '--cwd', root, '--json'], { command: 'history' }).then(
          (x) => JSON.parse(x.stdout) as { steps: { tool: string | null; text: string | null }[] },
        );
        assert.ok(shown.steps.some((s) => s.tool === 'context/summary' && /^context summarized: /.test(s.text ?? '')));

        // A new process: --resume last puts the session back; the follow-up sees the earlier goal, the summary and the answer.
        const next = await import('../../support/scriptedModel').then((m) =>
          m.ScriptedModelServer.start([
            {
              reply: { toolCalls: [call('finish', { summary: 'It was value3_7.' })] },
              check: ({ body }: { body: unknown }) => {
                const all = (body as Body).messages.map((m) => m.content ?? '').join('\n');
                for (const s of ['find the magic value', 'The magic value is value3_7.', 'Summary of earlier work', 'which value was it?'])
                  if (!all.includes(s)) return `missing: ${s}`;
              },
            },
          ]),
        );
        try {
          const resumed = await runCli([...base(root, next.baseUrl), '--resume', 'last', '--goal', 'which value was it?']);
          assert.equal(resumed.code, 0, resumed.stderr);
          assert.deepEqual(next.mismatches, []);
          assert.match(resumed.stderr, /patchpilot: resuming run [0-9a-f]{8} \(finished: "find the magic value"\) with \d+ message\(s\)/);
          const bad = await runCli([...base(root, next.baseUrl), '--resume', 'no-such-run', '--goal', 'x']);
          assert.equal(bad.code, 2);
          assert.match(bad.stderr, /--resume: no run with id no-such-run/);
        } finally {
          await next.close();
        }
      },
      files,
    );
  });
});
