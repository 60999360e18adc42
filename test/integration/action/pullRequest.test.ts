// The action's create-pr step, run as GitHub runs the entry: the fix committed on a new branch and
// pushed to the remote (a local bare repository), and the pull request opened through the REST API
// (a local HTTP server standing in for GITHUB_API_URL, recording the request). The checked-out
// branch stays where it was, and the token reaches the push and the API only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, skipWithoutBuild, withRepo } from '../agent/support';
import { FIX } from '../../unit/orchestrator/harness';
import { outputsOf, runAction } from './support';

interface Recorded {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A stand-in for GitHub's REST API: answers a pull request's creation as GitHub does (201, number, html_url). */
async function fakeApi(): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(text || '{}') });
      const port = (server.address() as AddressInfo).port;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ number: 7, html_url: `http://127.0.0.1:${port}/acme/widgets/pull/7` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('create-pr: the fix on a new branch in the remote, a pull request with the summary and usage', { skip: skipWithoutBuild, timeout: 120_000 }, async () => {
  await withRepo(
    [
      { reply: { text: 'Fixing add.', toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { text: 'add() adds now.', toolCalls: [call('finish', { summary: 'add() adds now.' })] } },
    ],
    async (root, server) => {
      const gh = mkdtempSync(path.join(os.tmpdir(), 'pp-action-pr-'));
      const api = await fakeApi();
      const bare = path.join(gh, 'remote.git');
      const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
      try {
        git(gh, 'init', '-q', '--bare', '-b', 'main', bare);
        git(root, 'remote', 'add', 'origin', bare);
        git(root, 'push', '-q', 'origin', 'main');
        const before = git(root, 'rev-parse', 'HEAD');
        const output = path.join(gh, 'output');
        const summary = path.join(gh, 'summary.md');
        writeFileSync(output, '');
        const r = await runAction({
          GITHUB_WORKSPACE: root,
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_API_URL: api.url,
          GITHUB_REPOSITORY: 'acme/widgets',
          GITHUB_REF_NAME: 'main',
          RUNNER_TEMP: gh,
          INPUT_GOAL: 'make add add',
          INPUT_MODEL: 'scripted-model',
          INPUT_BASE_URL: server.baseUrl,
          INPUT_API_KEY: 'model-key',
          INPUT_APPROVE: 'auto-edit',
          INPUT_TEST_COMMAND: `${JSON.stringify(process.execPath)} --test add.test.js`,
          INPUT_CREATE_PR: 'true',
          INPUT_GITHUB_TOKEN: 'ghs_token_for_the_push',
        });
        assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
        const out = outputsOf(output);
        assert.match(out.branch!, /^patchpilot\/[0-9a-f-]{8}$/);
        assert.deepEqual([out['pull-request-number'], out['pull-request-url']], ['7', `${api.url}/acme/widgets/pull/7`]);

        // The remote has the branch: one commit on top of main, the fix and nothing else.
        const tip = git(bare, 'rev-parse', `refs/heads/${out.branch}`);
        assert.equal(git(bare, 'rev-parse', `${tip}^`), before);
        assert.equal(git(bare, 'diff-tree', '--no-commit-id', '--name-only', '-r', tip), 'add.js');
        assert.equal(git(bare, 'show', `${tip}:add.js`), 'exports.add = (a, b) => a + b;');
        assert.match(git(bare, 'log', '-1', '--format=%B', tip), /^PatchPilot: make add add\n\nadd\(\) adds now\.\n\nTests after the last edit: passed\./);
        // The checkout is where it was: same branch, same HEAD, the fix still on disk.
        assert.deepEqual([git(root, 'symbolic-ref', '--short', 'HEAD'), git(root, 'rev-parse', 'HEAD')], ['main', before]);

        assert.equal(api.requests.length, 1);
        const [request] = api.requests;
        assert.deepEqual(
          [request!.method, request!.url, request!.headers.authorization],
          ['POST', '/repos/acme/widgets/pulls', 'Bearer ghs_token_for_the_push'],
        );
        assert.deepEqual(
          [request!.body.head, request!.body.base, request!.body.draft, request!.body.title],
          [out.branch, 'main', false, 'PatchPilot: make add add'],
        );
        const body = String(request!.body.body);
        assert.match(body, /## PatchPilot: finished \(exit 0\)/);
        assert.match(body, /add\(\) adds now\./);
        assert.match(body, /### Usage[\s\S]*\| scripted-model \| 2 \|/);
        assert.match(readFileSync(summary, 'utf8'), /\*\*Pull request:\*\* http:\/\/127\.0\.0\.1:\d+\/acme\/widgets\/pull\/7/);
        assert.ok(!JSON.stringify(server.requests).includes('ghs_token_for_the_push'), 'the token never reached the model');
      } finally {
        await api.close();
        rmSync(gh, { recursive: true, force: true });
      }
    },
  );
});
