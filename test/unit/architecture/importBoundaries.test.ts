// The layering rules of ARCHITECTURE.md live in eslint.config.mjs (run by `npm test` through
// `npm run lint`). This proves the rules fire: sample imports, linted as if they sat at a path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The boundary messages for `code` placed at `file` (other rules ignored). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = 1;\n`, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases: [file: string, code: string, refused: boolean][] = [
  // Nothing below the host imports vscode; the core and the protocol never reach the host or the CLI.
  ['src/core/tools/x.ts', "import * as vscode from 'vscode';", true],
  // A folder the layer table does not know yet still meets the catch-all.
  ['src/core/notYetLayered/x.ts', "import * as vscode from 'vscode';", true],
  ['src/core/notYetLayered/x.ts', "import { activate } from '../../host/vscode/extension';", true],
  ['src/protocol/x.ts', "import * as vscode from 'vscode';", true],
  ['src/cli/commands/x.ts', "import * as vscode from 'vscode';", true],
  ['src/core/session/x.ts', "import { activate } from '../../host/vscode/extension';", true],
  ['src/core/policy/path/x.ts', "import { ExitCode } from '../../../cli/io';", true],
  ['src/core/orchestrator/x.ts', "import type { AgentEvent } from '../../protocol/agentEvents';", false],
  ['src/core/history/x.ts', "import { RUN_END_STATUSES } from '../../protocol/agentEvents';", false],
  // The protocol has zero imports; the webviews import src/protocol only; the host and the CLI stay apart.
  ['src/protocol/x.ts', "import { readFileSync } from 'node:fs';", true],
  ['src/protocol/x.ts', "import type { HunkView } from './agentEvents';", false],
  ['webview-ui/chat/x.ts', "import { errorMessage } from '../../src/core/base';", true],
  ['webview-ui/chat/x.ts', "import type { ChatMessage } from '../../src/protocol/chat';", false],
  ['src/host/vscode/chat/x.ts', "import { ExitCode } from '../../../cli/io';", true],
  ['src/cli/node/x.ts', "import { log } from '../../host/vscode/log';", true],
  // The Node host's adapters: the CLI builds on them; they never reach VS Code.
  ['src/cli/node/x.ts', "import { NodeWorkspaceFs } from '../../host/node/nodeWorkspaceFs';", false],
  ['src/host/node/x.ts', "import * as vscode from 'vscode';", true],
  ['src/host/node/x.ts', "import { log } from '../vscode/log';", true],
  ['src/host/node/x.ts', "import { commitConfined } from '../../core/policy/path/confinedCommit';", true],
  ['src/host/node/x.ts', "import { commitConfined } from '../../core/policy';", false],
  ['src/host/vscode/diff/fooLogic.ts', "import * as vscode from 'vscode';", true],
  ['src/host/vscode/diff/foo.ts', "import * as vscode from 'vscode';", false],
  // The hosts see a core folder only through its entry.
  ['src/host/vscode/chat/x.ts', "import { createAgent } from '../../../core/session/agent';", true],
  ['src/host/vscode/chat/x.ts', "import type { Agent } from '../../../core/session/agent';", true],
  ['src/host/vscode/chat/x.ts', "import { createAgent } from '../../../core/session';", false],
  ['src/cli/node/x.ts', "import { runCommand } from '../../core/sandbox/runCommand';", true],
  ['src/cli/node/x.ts', "import { runCommand } from '../../core/sandbox';", false],
  // Inside the core: the foundations import only what sits below them, at any depth of their folder.
  ['src/core/base/x.ts', "import { fileGlob } from '../tools/globPattern';", true],
  ['src/core/base/x.ts', "import { Emitter } from './event';", false],
  ['src/core/fs/x.ts', "import { errorMessage } from '../base';", false],
  ['src/core/policy/path/x.ts', "import { writeFileAtomic } from '../../fs/atomicFile';", false],
  ['src/core/policy/path/x.ts', "import type { PolicyDecision } from '../types';", false],
  ['src/core/sandbox/x.ts', "import { checkPath } from '../policy/path/checkPath';", false],
  ['src/core/sandbox/x.ts', "import { PatchManager } from '../patch/patchManager';", true],
  ['src/core/policy/command/x.ts', "import { runCommand } from '../../sandbox/runCommand';", true],
  ['src/core/policy/command/x.ts', "import { Orchestrator } from '../../orchestrator/orchestrator';", true],
  ['src/core/history/x.ts', "import { checkPath } from '../policy/path';", true],
  ['src/core/history/x.ts', "import type { Verdict } from '../policy/types';", false],
  ['src/core/history/worker/x.ts', "import { PatchManager } from '../../patch/patchManager';", true],
  ['src/core/llm/x.ts', "import { loadCliConfig } from '../config';", true],
  ['src/core/patch/parse/x.ts', "import { confinePath } from '../../policy/path/workspacePath';", false],
  ['src/core/patch/x.ts', "import { createToolRegistry } from '../tools';", true],
  ['src/core/ports/x.ts', "import { PatchManager } from '../patch/patchManager';", true],
  ['src/core/ports/x.ts', "import type { ApplyResult } from '../patch/types';", false],
  // The upper layers: nothing imports the layer above it.
  ['src/core/tools/x.ts', "import { Orchestrator } from '../orchestrator/orchestrator';", true],
  ['src/core/tools/x.ts', "import { PatchManager } from '../patch/patchManager';", false],
  ['src/core/context/x.ts', "import { ChatSession } from '../session/chatSession';", true],
  ['src/core/context/x.ts', "import { runTestsTool } from '../tools/runTests';", true],
  ['src/core/tools/x.ts', "import { rememberFact } from '../context/memory/memoryFiles';", false],
  ['src/core/mcp/x.ts', "import { briefArgs } from '../orchestrator/recorder';", true],
  ['src/core/config/x.ts', "import { createMcpManager } from '../mcp/manager';", true],
  ['src/core/orchestrator/x.ts', "import { ChatSession } from '../session/chatSession';", true],
  ['src/core/session/x.ts', "import { Orchestrator } from '../orchestrator/orchestrator';", false],
  // The tools and the orchestrator reach the workspace only through the WorkspaceFs port, never node:fs.
  ['src/core/tools/x.ts', "import { readFile } from 'node:fs/promises';", true],
  ['src/core/tools/x.ts', "import { statSync } from 'fs';", true],
  ['src/core/tools/x.ts', "import { promises } from 'node:fs';", true],
  ['src/core/orchestrator/x.ts', "import { realpath } from 'fs/promises';", true],
  ['src/core/orchestrator/sub/x.ts', "import * as fs from 'node:fs';", true],
  ['src/core/tools/x.ts', "import type { Stats } from 'node:fs';", false],
  ['src/core/tools/x.ts', "import path from 'node:path';", false],
  ['src/core/workspace/x.ts', "import { readFile } from 'node:fs/promises';", false],
  ['src/core/patch/x.ts', "import { readFileSync } from 'node:fs';", false],
];

test('import boundaries: every layer rule refuses what it must and lets the rest through', async () => {
  const wrong: string[] = [];
  for (const [file, code, refused] of cases) {
    const errors = await boundaryErrors(file, code);
    if (errors.length > 0 !== refused)
      wrong.push(`${file}: ${code} -> ${errors.length ? errors.join(' | ') : 'allowed'} (expected ${refused ? 'refused' : 'allowed'})`);
  }
  assert.deepEqual(wrong, []);
});

test('the repository itself passes the boundary rules', async () => {
  const results = await eslint.lintFiles(['src', 'webview-ui']);
  const crossings = results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${path.relative(root, r.filePath)}:${m.line}: ${m.message}`),
  );
  assert.deepEqual(crossings, []);
});
