// End to end: a server started without its tool-call parser (vLLM without --tool-call-parser,
// llama.cpp without --jinja) streams the model's tool calls as text. `patchpilot run` reads them as
// the tool calls they are, runs them, and tells the user once which server option makes them native.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { events, runCli, skipWithoutBuild, withRepo } from './support';

describe('tool calls sent as text (built CLI, scripted model server)', { skip: skipWithoutBuild }, () => {
  test('Hermes markup runs the named tool; the hint comes once; markup naming a tool that is not offered runs nothing and the model hears why', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "add.js"}}\n</tool_call>' } },
      { reply: { text: '[TOOL_CALLS]grep[ARGS]{"pattern": "exports"}' }, expect: { lastMessageContains: 'a - b' } },
      { reply: { text: '<tool_call>{"name": "format_disk", "arguments": {}}</tool_call>' }, expect: { lastMessageRole: 'tool' } },
      { reply: { text: 'add() subtracts.' }, expect: { lastMessageContains: 'not offered: "format_disk"' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'why does the test fail', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      const ev = events(r.stdout);
      assert.deepEqual(
        ev.filter((e) => e.type === 'tool/finished').map((e) => [e.name, e.ok]),
        [
          ['read_file', true],
          ['grep', true],
        ],
      );
      const notices = ev.filter((e) => e.type === 'model/notice').map((e) => String(e.message));
      assert.equal(notices.length, 2, notices.join('\n'));
      assert.match(notices[0]!, /sent tool calls as text \(hermes format\).*--tool-call-parser hermes.*--jinja/);
      assert.match(notices[1]!, /not run: call 1 names a tool that is not offered: "format_disk"/);
      assert.equal(ev.at(-1)!.summary, 'add() subtracts.');
    });
  });
});
