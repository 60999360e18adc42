// Other agents' rules files through the built CLI (`patchpilot run`): the scripted model server checks
// that they reach the model's request (the root ones at once in the system prompt, the nested and
// globbed ones with the result of the read that touched a file below them), the --json stream and the plain output say which were loaded, and a source
// turned off in .vscode/settings.json stays out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUGGY } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from './support';

type Body = { messages: { role: string; content: string | null }[] };
const systemOf = (body: unknown) => (body as Body).messages[0]!.content ?? '';
const lastOf = (body: unknown) => (body as Body).messages.at(-1)!.content ?? '';

const FILES = {
  ...BUGGY,
  'AGENTS.md': 'ROOT-RULE: explain every change in one line.\n',
  'lib/AGENTS.md': 'NESTED-RULE: lib/ uses tabs.\n',
  'lib/util.js': 'exports.id = (x) => x;\n',
  '.cursor/rules/js.mdc': '---\nglobs: lib/**/*.js\nalwaysApply: false\n---\nGLOB-RULE: no default exports in lib.\n',
  '.cursor/rules/db.mdc': '---\ndescription: Writing database migrations\n---\nREQUESTED-RULE: migrations are append-only.\n',
  '.clinerules': 'CLINE-RULE: this source is turned off.\n',
  '.vscode/settings.json': JSON.stringify({ 'patchpilot.rules.cline': false }),
};

const base = (root: string, url: string) => ['--workspace', root, '--base-url', url, '--model', 'scripted-model', '--approve', 'auto-edit'];

describe('patchpilot run: rules files', { skip: skipWithoutBuild }, () => {
  test('root rules reach the first request; nested and globbed ones the request after a file below them was read; a source turned off never', async () => {
    const turns = [
      {
        reply: { toolCalls: [call('read_file', { path: 'lib/util.js' })] },
        check: ({ body }: { body: unknown }) => {
          const system = systemOf(body);
          if (!system.includes('ROOT-RULE: explain every change in one line.')) return 'the root AGENTS.md is not in the first request';
          if (!system.includes('- .cursor/rules/db.mdc: Writing database migrations')) return 'the description-only rule is not listed';
          if (system.includes('REQUESTED-RULE')) return 'a description-only rule was loaded whole';
          if (system.includes('NESTED-RULE') || system.includes('GLOB-RULE')) return 'a conditional rule came in before its file was touched';
          if (system.includes('CLINE-RULE')) return 'a source turned off in .vscode/settings.json was loaded';
        },
      },
      {
        reply: { toolCalls: [call('finish', { summary: 'done' })] },
        check: ({ body }: { body: unknown }) => {
          // They come with the result of the read that touched lib/; the system prompt stays as it was (the prompt cache).
          const system = systemOf(body);
          if (system.includes('NESTED-RULE') || system.includes('GLOB-RULE')) return 'the system prompt was rewritten mid-run';
          if (!system.includes('ROOT-RULE: explain every change in one line.')) return 'the root AGENTS.md left the system prompt';
          const result = lastOf(body);
          if (!result.includes('[Rules files that now apply') || !result.includes('## lib/AGENTS.md (folder lib/ touched)\nNESTED-RULE: lib/ uses tabs.'))
            return 'the read_file result does not carry the nested AGENTS.md';
          if (!result.includes('GLOB-RULE: no default exports in lib.')) return 'the glob rule did not come in';
        },
      },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli([...base(root, server.baseUrl), '--goal', 'tidy lib', '--json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const loaded = events(r.stdout).filter((e) => e.type === 'rules/loaded');
        assert.deepEqual(loaded, [
          {
            v: 1,
            type: 'rules/loaded',
            initial: true,
            rules: [
              { path: 'AGENTS.md', why: 'always' },
              { path: '.cursor/rules/db.mdc', why: 'listed: Writing database migrations', listed: true },
            ],
          },
          {
            v: 1,
            type: 'rules/loaded',
            initial: false,
            rules: [
              { path: 'lib/AGENTS.md', why: 'folder lib/ touched' },
              { path: '.cursor/rules/js.mdc', why: 'globs lib/**/*.js: lib/util.js' },
            ],
          },
        ]);
      },
      FILES,
    );
  });

  test('the plain output says which rules were loaded', async () => {
    const turns = [{ reply: { toolCalls: [call('read_file', { path: 'lib/util.js' })] } }, { reply: { toolCalls: [call('finish', { summary: 'done' })] } }];
    await withRepo(
      turns,
      async (root, server) => {
        const r = await runCli([...base(root, server.baseUrl), '--goal', 'tidy lib']);
        assert.equal(r.code, 0, r.stderr);
        const out = r.stdout + r.stderr;
        assert.match(out, /Rules loaded: AGENTS\.md · listed for the model to read when relevant: \.cursor\/rules\/db\.mdc/);
        assert.match(out, /More rules loaded: lib\/AGENTS\.md \(folder lib\/ touched\), \.cursor\/rules\/js\.mdc \(globs lib\/\*\*\/\*\.js: lib\/util\.js\)/);
      },
      FILES,
    );
  });
});
