// End to end: the built `patchpilot run` binary runs patchpilot.tests.checkCommands after an applied
// patch (from the trusted workspace's settings), and the checker's line about the edited file is in
// the model's next request; its lines about other files are not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, runGoal, skipWithoutBuild, withRepo } from './support';

/** A checker in the style of tsc: one error in add.js (the edited file), one in a file nobody edited. */
const CHECKER =
  "console.log('add.js(1,31): error TS1005: \\';\\' expected.');\nconsole.log('lib/other.js(4,2): error TS2304: unrelated.');\nprocess.exit(2);\n";
const settings = (checkCommands: string[]) => JSON.stringify({ 'patchpilot.tests.checkCommands': checkCommands }, null, 2);

describe('patchpilot run: check commands after an edit', { skip: skipWithoutBuild }, () => {
  test("a check command's error in the edited file reaches the model with the patch result", async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: "add.js(1,31): error TS1005: ';' expected." } },
    ];
    const files = { ...BUGGY, 'check.js': CHECKER, '.vscode/settings.json': settings(['node check.js']) };
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runGoal('fix add', root, server, ['--no-detect-tests', '--trust-workspace']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const result = server.chatRequests[1]!.body.messages.at(-1).content as string;
        assert.match(result, /^applied 1 hunk to add\.js/);
        assert.match(result, /check commands after the edit:\n\n\$ node check\.js\nexit 2; lines naming the files you edited:\nadd\.js\(1,31\)/);
        assert.doesNotMatch(result, /unrelated/);
        assert.equal(events(r.stdout).at(-1)!.type, 'result');
      },
      files,
    );
  });
  test("an untrusted workspace's check command does not run: the workspace cannot choose what runs after each edit", async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'applied 1 hunk' } },
    ];
    const files = { ...BUGGY, 'check.js': CHECKER, '.vscode/settings.json': settings(['node check.js']) };
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runGoal('fix add', root, server, ['--no-detect-tests']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        assert.doesNotMatch(server.chatRequests[1]!.body.messages.at(-1).content as string, /check commands|TS1005/);
        assert.match(r.stderr, /checkCommands/);
      },
      files,
    );
  });
});
