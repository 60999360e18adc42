// The rules files steering the agent, as the user meets them in the chat: the root AGENTS.md is
// named when the run starts, and the nested one once the agent reads a file below it.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    {
      reply: { text: 'Reading the helper.', toolCalls: [{ name: 'read_file', arguments: { path: 'lib/util.js' } }] },
      expect: { anyMessageContains: 'ROOT-RULE' },
    },
    { reply: { text: 'The helper returns its argument.' }, expect: { anyMessageContains: 'NESTED-RULE' } },
  ],
  settings,
);

e2eTest(
  'the chat names the rules files loaded: the root ones at the start, a nested one when the agent reads below it',
  async (vs) => {
    const chat = await sendInChat(vs, 'What does lib/util.js do?');
    await chat
      .getByText('The helper returns its argument.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.getByText('Rules loaded: AGENTS.md', { exact: true }).waitFor();
    await chat.getByText('More rules loaded: lib/AGENTS.md (folder lib/ touched)', { exact: true }).waitFor();
    await vs.screenshot('rules-loaded');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  {
    files: {
      'AGENTS.md': 'ROOT-RULE: explain every change.\n',
      'lib/AGENTS.md': 'NESTED-RULE: lib uses tabs.\n',
      'lib/util.js': 'exports.id = (x) => x;\n',
    },
    settings,
  },
);
