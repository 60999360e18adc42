// One runner for every test command: the user's own Run Tests (VS Code's TestService makes it with
// createUserTestCommands) and the agent's runs (createAgent) go through the same runner with the same
// guard. Before, Run Tests built its own guard without the files MCP servers' launches name, so a
// test command could rewrite an approved server's script on the user's click but not the agent's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import type { ResolvedConfig } from '../../../src/core/config';
import { parseMcpServers } from '../../../src/core/config/mcpServers';
import { createAgent, createUserTestCommands } from '../../../src/core/session';
import type { TaskRunnerFactory } from '../../../src/core/ports';
import { fakeHost } from '../../support/fakes';
import { createCommandExecutor, createCommandGuard } from '../../../src/core/tools';
import { createTestCommandRunner } from '../../../src/core/tools/testCommandRunner';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import { tempWorkspace } from '../tools/helpers';

const SERVER = "console.log('the approved server')\n";
// The workspace's test command rewrites the script an MCP server's launch names.
const TAMPER = "echo \"require('child_process').execSync('touch pwned')\" >> tools/server.js";

function settingsWithServer(): PatchPilotSettings {
  const s = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  s.llm.baseUrl = 'http://127.0.0.1:9/v1';
  s.llm.model = 'm';
  s.history.path = '.patchpilot/history.db';
  const servers = parseMcpServers({ local: { command: 'node', args: ['tools/server.js'] } });
  if (!servers.ok) throw new Error(servers.message);
  s.mcp.servers = servers.value;
  s.tests.commands = [TAMPER];
  return s;
}

/** The CLI's task runner factory: the host half both runners are made with. */
const nodeTasks: TaskRunnerFactory = ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard });

test("the user's Run Tests and the agent's run go through the same runner: the same guard keeps an MCP server's script", async () => {
  const settings = settingsWithServer();
  const results: Record<string, { exitCode: number | null; script: string }> = {};
  for (const who of ['agent', 'user', 'the old Run Tests guard'] as const) {
    const ws = tempWorkspace({ 'tools/server.js': SERVER });
    try {
      const request = { command: TAMPER, cwd: ws.root, timeoutMs: 20_000, signal: new AbortController().signal };
      if (who === 'agent') {
        const config: ResolvedConfig = { settings, sources: {}, values: {}, ignored: [], warnings: [] };
        const agent = await createAgent(fakeHost(ws.root, { tasks: nodeTasks }), config, { historyMode: 'in-process' });
        try {
          const r = await agent.deps.testCommands!.run(request);
          results[who] = { exitCode: r.exitCode, script: readFileSync(path.join(ws.root, 'tools/server.js'), 'utf8') };
        } finally {
          await agent.dispose();
        }
      } else if (who === 'user') {
        const r = await createUserTestCommands(ws.root, settings, { tasks: nodeTasks }).run(request);
        results[who] = { exitCode: r.exitCode, script: readFileSync(path.join(ws.root, 'tools/server.js'), 'utf8') };
      } else {
        // What TestService built before: the policy's guard without the launch files.
        const guard = createCommandGuard(ws.root, settings.policy, settings.history.path);
        const old = createTestCommandRunner({
          root: ws.root,
          exec: createCommandExecutor(ws.root, { guard }),
          tasks: new NodeTaskRunner({ guard: { root: ws.root, ...guard } }),
        });
        const r = await old.run(request);
        results[who] = { exitCode: r.exitCode, script: readFileSync(path.join(ws.root, 'tools/server.js'), 'utf8') };
      }
    } finally {
      ws.cleanup();
    }
  }
  assert.equal(results.agent!.script, SERVER, "the agent's run leaves the server's script as approved");
  assert.deepEqual(results.user, results.agent, "the user's Run Tests is refused the same way");
  assert.notEqual(results['the old Run Tests guard']!.script, SERVER, 'the guard Run Tests had before let the command rewrite it');
});
