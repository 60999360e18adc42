// The bundled skills' scripts, run for real in real git repositories: directly, and the way the
// agent runs them (run_command, through the real command policy and executor).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCommandPolicy } from '../../../src/core/policy/command';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import { runCommand } from '../../../src/core/sandbox/runCommand';
import { probeSandbox } from '../../../src/core/sandbox/probe';
import { DEFAULT_PATH_SETTINGS } from '../../../src/core/policy/path';
import { createCommandExecutor, createPathPolicy } from '../../../src/core/tools/policyAdapters';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { ScriptedApprover, gitInit, tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const SKILLS = path.resolve(__dirname, '../../../skills');
const RELATED = path.join(SKILLS, 'write-tests/scripts/related-tests.sh');
const REVIEW = path.join(SKILLS, 'review-before-finish/scripts/review-diff.sh');
const sh = (cwd: string, script: string, ...args: string[]) => execFileSync('sh', [script, ...args], { cwd, encoding: 'utf8' });

const PROJECT = {
  'src/parser.ts': 'export function parse(s: string) { return s.split(","); }\n',
  'src/util/format.py': 'def fmt(x):\n    return str(x)\n',
  'src/lonely.ts': 'export const x = 1;\n',
  'test/parser.test.ts': "import { parse } from '../src/parser';\n",
  'tests/test_format.py': 'from src.util.format import fmt\n',
  'test/integration.spec.ts': "import '../src/parser';\n",
  'docs/parser.md': 'not a test\n',
};

test('related-tests.sh: tests named after a file and tests that mention it, for given or changed files', () => {
  const ws = tempWorkspace(PROJECT);
  try {
    gitInit(ws.root);
    const named = sh(ws.root, RELATED, 'src/parser.ts', 'src/util/format.py', 'src/lonely.ts');
    assert.equal(
      named,
      [
        '== src/parser.ts',
        '  named after it: test/parser.test.ts',
        '  mentions parser: test/integration.spec.ts',
        '  mentions parser: test/parser.test.ts',
        '== src/util/format.py',
        '  named after it: tests/test_format.py',
        '  mentions format: tests/test_format.py',
        '== src/lonely.ts',
        '  no test file is named after it or mentions lonely: a new test file is needed',
        '',
      ].join('\n'),
    );
    assert.equal(sh(ws.root, RELATED), 'nothing changed since HEAD: name the source files\n');
    writeFileSync(path.join(ws.root, 'src/parser.ts'), 'export function parse(s: string) { return s.split(";"); }\n');
    assert.match(sh(ws.root, RELATED), /^== src\/parser\.ts\n {2}named after it: test\/parser\.test\.ts\n/);
  } finally {
    ws.cleanup();
  }
});

test('review-diff.sh: changed and untracked files, a stat, the lines worth a second look, the diff', () => {
  const ws = tempWorkspace(PROJECT);
  try {
    gitInit(ws.root);
    writeFileSync(path.join(ws.root, 'src/parser.ts'), 'export function parse(s: string) {\n  console.log(s);\n  // TODO: quotes\n  return s.split(",");\n}\n');
    writeFileSync(path.join(ws.root, 'test/parser.test.ts'), "import { parse } from '../src/parser';\ntest.only('splits', () => {});\n");
    writeFileSync(path.join(ws.root, 'notes.txt'), 'scratch\n');
    const out = sh(ws.root, REVIEW);
    assert.match(out, /^== changed files \(against HEAD\) ==\n M src\/parser\.ts\n M test\/parser\.test\.ts\n\?\? notes\.txt\n/);
    assert.match(out, /== diff stat ==\n src\/parser\.ts +\| \d+/);
    assert.match(
      out,
      /== added lines to look at twice ==\nsrc\/parser\.ts:2:   console\.log\(s\);\nsrc\/parser\.ts:3:   \/\/ TODO: quotes\ntest\/parser\.test\.ts:2: test\.only\('splits', \(\) => \{\}\);\n/,
    );
    assert.match(out, /== untracked files \(new, not in the diff below; review them with read_file\) ==\nnotes\.txt\n/);
    assert.match(out, /== diff ==\ndiff --git a\/src\/parser\.ts b\/src\/parser\.ts/);
    assert.match(sh(ws.root, REVIEW, 'no-such-ref'), /^no commit named 'no-such-ref'/);
  } finally {
    ws.cleanup();
  }
  const plain = tempWorkspace({ 'a.txt': 'a\n' });
  try {
    assert.equal(sh(plain.root, REVIEW), 'not a git repository: re-read each file you changed instead\n');
  } finally {
    plain.cleanup();
  }
});

test('the agent runs a skill script like any command: the command policy decides, the user approves, the sandboxed executor runs it', async () => {
  const ws = tempWorkspace(PROJECT);
  try {
    gitInit(ws.root);
    const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
    const ignore = new IgnoreRules(ws.root);
    const commandPolicy = await createCommandPolicy({ trusted: true, isIgnoredPath: (p: string) => ignore.agentFilter.isIgnored(p) });
    // As createAgent does: the skills folder stays readable in the sandbox (which hides /tmp and the home).
    const exec = createCommandExecutor(ws.root, { readOnlyPaths: [SKILLS] });
    const pathPolicy = createPathPolicy(ws.root, DEFAULT_PATH_SETTINGS, (rel, isDir) => ignore.agentFilter.isIgnored(rel, isDir));
    const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, ignore, commandPolicy, exec, pathPolicy });
    const tools = new ToolRegistry([runCommandTool]);
    const r = await tools.invoke('run_command', { command: `sh ${RELATED} src/parser.ts` }, ctx);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /named after it: test\/parser\.test\.ts/);
    // Not on any allowlist: the policy asked, even in auto mode, and the verdict is in the audit trail.
    assert.equal(approver.actionRequests.length, 1);
    assert.equal(approver.actionRequests[0]!.kind, 'command');
    assert.ok(ctx.events.some((e) => e.type === 'policy' && e.kind === 'command' && e.decision.verdict === 'ask'));

    const refusing = fakeToolContext(ws.root, { mode: 'auto', approver: new ScriptedApprover(), ignore, commandPolicy, exec, pathPolicy });
    const declined = await tools.invoke('run_command', { command: `sh ${REVIEW}` }, refusing);
    assert.equal(declined.ok, false);
    assert.match(declined.output, /the user declined/);
  } finally {
    ws.cleanup();
  }
});

test('the sandbox shows a skills folder under /tmp read-only, and only when it is named', async (t) => {
  if (!probeSandbox().available) return t.skip('bubblewrap is not available here');
  const skills = mkdtempSync(path.join(os.tmpdir(), 'pp-skills-'));
  const ws = tempWorkspace({ 'a.txt': 'a\n' });
  try {
    cpSync(SKILLS, skills, { recursive: true });
    const script = path.join(skills, 'write-tests/scripts/related-tests.sh');
    const run = (readOnlyPaths: string[], command: string) =>
      runCommand({ command, cwd: ws.root, workspaceRoot: ws.root, sandbox: 'require', timeoutMs: 20_000, readOnlyPaths });
    const seen = await run([skills], `sh ${script} a.txt`);
    assert.equal(seen.exitCode, 0, seen.stderr);
    assert.match(seen.stdout, /no test files found/);
    const hidden = await run([], `test -e ${script} && echo visible || echo hidden`);
    assert.equal(hidden.stdout.trim(), 'hidden');
    const write = await run([skills], `echo x > ${path.join(skills, 'planted.sh')}`);
    assert.notEqual(write.exitCode, 0);
    assert.equal(existsSync(path.join(skills, 'planted.sh')), false);
  } finally {
    rmSync(skills, { recursive: true, force: true });
    ws.cleanup();
  }
});
