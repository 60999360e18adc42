// The CLI's Host.secrets (src/host/node/fileSecretStore.ts): a token one `patchpilot` process stores
// (`mcp login`) is there for the next one (a run), in the file and format tokens have always had:
// `mcp-oauth.json` in PATCHPILOT_STATE_HOME, mode 0600, one JSON object of strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CLI_HOST = path.resolve(__dirname, '../../../src/cli/node/cliHost.ts');

/** Runs `code` in a new Node process (TypeScript through tsx) with `store`, the CLI host's secret store, in scope; returns its stdout. */
function inNewProcess(stateHome: string, code: string): string {
  const script = `import cliHost from ${JSON.stringify(CLI_HOST)};\nconst store = cliHost.cliSecretStore();\n${code}`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, PATCHPILOT_STATE_HOME: stateHome },
    encoding: 'utf8',
  });
}

test("the CLI host's secrets: a token stored by one process is read by the next, in a 0600 mcp-oauth.json", () => {
  const stateHome = mkdtempSync(path.join(tmpdir(), 'pp-cli-secrets-'));
  try {
    inNewProcess(stateHome, `await store.store('patchpilot.mcp.oauth:https://mcp.example.com/mcp', '{"tokens":{"access_token":"t1"}}');`);
    const file = path.join(stateHome, 'mcp-oauth.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { 'patchpilot.mcp.oauth:https://mcp.example.com/mcp': '{"tokens":{"access_token":"t1"}}' });
    const read = inNewProcess(stateHome, `process.stdout.write(String(await store.get('patchpilot.mcp.oauth:https://mcp.example.com/mcp')));`);
    assert.equal(read, '{"tokens":{"access_token":"t1"}}');
  } finally {
    rmSync(stateHome, { recursive: true, force: true });
  }
});
