// web_search end to end: the built CLI, the key from PATCHPILOT_BRAVE_API_KEY, the provider from a
// trusted workspace's settings, a local server speaking Brave's JSON, the scripted model calling it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { startServer } from '../localServer';
import { call, events, runCli, skipWithoutBuild, withRepo } from '../../agent/support';

describe('patchpilot run with web_search (built CLI)', { skip: skipWithoutBuild }, () => {
  test('the model searches through Brave with the key from the environment and reads the results', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const brave = await startServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'search',
          web: {
            results: [
              {
                title: 'Array.prototype.toSorted()',
                url: 'https://developer.mozilla.org/toSorted',
                description: 'Returns a <strong>new</strong> sorted array.',
              },
            ],
          },
        }),
      );
    });
    const turns = [
      { reply: { toolCalls: [call('web_search', { query: 'toSorted mdn' })] }, expect: { toolsInclude: ['web_search'] } },
      {
        reply: { toolCalls: [call('finish', { summary: 'found it' })] },
        expect: { lastMessageContains: '1. Array.prototype.toSorted()\n   https://developer.mozilla.org/toSorted\n   Returns a new sorted array.' },
      },
    ];
    try {
      await withRepo(turns, async (root, server) => {
        mkdirSync(path.join(root, '.vscode'));
        writeFileSync(
          path.join(root, '.vscode', 'settings.json'),
          JSON.stringify({ 'patchpilot.webSearch.provider': 'brave', 'patchpilot.webSearch.url': `http://127.0.0.1:${brave.port}/res/v1/web/search` }),
        );
        const r = await runCli(
          ['--goal', 'look it up', '--workspace', root, '--trust-workspace', '--base-url', server.baseUrl, '--model', 'scripted-model', '--json'],
          { env: { PATCHPILOT_BRAVE_API_KEY: 'bsa-test-key' } },
        );
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        assert.equal(seen[0]!['x-subscription-token'], 'bsa-test-key');
        assert.ok(events(r.stdout).some((e) => e.type === 'tool/finished' && e.name === 'web_search' && e.ok === true));
      });
    } finally {
      await brave.close();
    }
  });

  test('nothing configured: the keyless provider is offered; a workspace (even untrusted) may turn it off', async () => {
    const offered = (body: Record<string, any>) => body.tools.some((t: any) => t.function.name === 'web_search');
    const keyless = [
      {
        reply: { toolCalls: [call('finish', { summary: 'ok' })] },
        check: ({ body }: { body: Record<string, any> }) => (offered(body) ? undefined : 'web_search not offered'),
      },
    ];
    await withRepo(keyless, async (root, server) => {
      const r = await runCli(['--goal', 'x', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
    });
    const turns = [
      {
        reply: { toolCalls: [call('finish', { summary: 'ok' })] },
        check: ({ body }: { body: Record<string, any> }) => (offered(body) ? 'web_search offered' : undefined),
      },
    ];
    await withRepo(turns, async (root, server) => {
      mkdirSync(path.join(root, '.vscode'));
      writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify({ 'patchpilot.webSearch.provider': 'off' }));
      const r = await runCli(['--goal', 'x', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
    });
  });
});
