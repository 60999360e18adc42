// The message box's suggestions of MCP prompt commands (webview-ui/chat/commandMatch.ts, used by commandSuggest.ts): only
// while a single `/` word is typed, prefix matches first, then the ones that contain it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchingCommands, matchingMentions } from '../../../webview-ui/chat/commandMatch';

const commands = [
  { command: '/mcp.everything.args-prompt', args: 'city=... [state=...]' },
  { command: '/mcp.everything.simple-prompt', args: '' },
  { command: '/mcp.docs.summarize', args: 'topic=...' },
];

test('a / word lists the commands that fit, prefix matches first; anything else lists none', () => {
  assert.deepEqual(
    matchingCommands(commands, '/').map((c) => c.command),
    commands.map((c) => c.command),
  );
  assert.deepEqual(
    matchingCommands(commands, '/mcp.every').map((c) => c.command),
    ['/mcp.everything.args-prompt', '/mcp.everything.simple-prompt'],
  );
  assert.deepEqual(
    matchingCommands(commands, '/simple').map((c) => c.command),
    ['/mcp.everything.simple-prompt'],
  );
  assert.deepEqual(matchingCommands(commands, '/mcp.everything.args-prompt city=Paris'), [], 'arguments being typed: closed');
  assert.deepEqual(matchingCommands(commands, 'fix the /mcp bug'), []);
  assert.deepEqual(matchingCommands([], '/'), []);
});

test('an @ word at the end lists the resources that fit, and says where the word starts', () => {
  const mentions = [
    { command: '@everything:demo://resource/static/document/features.md', args: '' },
    { command: '@docs:file:///guide.md', args: '' },
  ];
  assert.deepEqual(matchingMentions(mentions, 'Summarize @every'), { items: [mentions[0]], from: 10 });
  assert.deepEqual(matchingMentions(mentions, '@'), { items: mentions, from: 0 });
  assert.deepEqual(matchingMentions(mentions, 'guide'), { items: [], from: -1 });
  assert.deepEqual(matchingMentions(mentions, 'mail a@b then'), { items: [], from: -1 });
});
