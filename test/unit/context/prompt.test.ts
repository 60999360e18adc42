import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { assembleSystemPrompt, fitToShare, type PromptSections } from '../../../src/core/context/promptAssembly';
import { gatherPromptSections } from '../../../src/core/context/promptSources';
import { loadSkillCatalog } from '../../../src/core/context/skills/skillCatalog';
import { workspaceReader } from '../../../src/core/context/workspaceText';
import { openHistoryStore } from '../../../src/core/history';
import { pathPolicyOf } from '../../../src/core/tools/paths';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const BUNDLED = path.resolve(__dirname, '../../../skills');
const tokens = (t: string) => Math.ceil(t.length / 4);

test('the prompt in order: identity and facts, project instructions, skills, earlier runs; the memory goes with a goal (goalNotes.ts)', () => {
  const sections: PromptSections = {
    rules: [
      { source: 'AGENTS.md', text: 'Use tabs.' },
      { source: '.patchpilot/rules/style.md', text: 'No default exports.' },
    ],
    memory: { source: '.patchpilot/MEMORY.md', text: '# Memory\n\n- CI runs on Node 20.\n' },
    skills: [{ name: 'write-tests', description: 'Add tests.' }],
    alwaysSkills: [{ name: 'deploy', text: 'Always deploy with make.' }],
    history: ['- [2025-01-02] asked: fix the date test\n    answer: changed src/date.ts'],
  };
  const { text, cut } = assembleSystemPrompt('BASE PROMPT', sections, 100_000, tokens);
  assert.deepEqual(cut, []);
  const at = (s: string) => text.indexOf(s);
  const order = [
    'BASE PROMPT',
    '## AGENTS.md\nUse tabs.',
    '## .patchpilot/rules/style.md\nNo default exports.',
    '- write-tests: Add tests.',
    '## Skill deploy (always on)\nAlways deploy with make.',
    'asked: fix the date test',
  ];
  for (const s of order) assert.ok(at(s) >= 0, s);
  assert.deepEqual(
    order.map(at),
    [...order.map(at)].sort((a, b) => a - b),
  );
  assert.match(text, /call load_skill with the skill's name/);
  assert.doesNotMatch(text, /CI runs on Node 20/, 'the memory changes between goals: never in the system prompt');
  // Nothing to add: only the base.
  assert.equal(assembleSystemPrompt('BASE', { rules: [], skills: [], alwaysSkills: [], history: [] }, 8_000, tokens).text, 'BASE');
});

test('each part keeps to its share of the budget: cut head and tail, with a note, and named for a warning', () => {
  const huge = (tag: string) => `${tag}-START\n${'line of text\n'.repeat(5_000)}${tag}-END`;
  const { text, cut } = assembleSystemPrompt(
    'BASE',
    { rules: [{ source: 'AGENTS.md', text: huge('RULES') }], memory: { source: 'M', text: huge('MEM') }, skills: [], alwaysSkills: [], history: [] },
    8_000,
    tokens,
  );
  assert.deepEqual(cut, ['project instructions']);
  assert.ok(tokens(text) < 8_000 * 0.15 + 200, String(tokens(text)));
  assert.match(text, /RULES-START[\s\S]*omitted[\s\S]*RULES-END\n\[project instructions cut to fit the context budget; read the file for the rest\]/);
  // The memory is cut to its share the same way before it goes with a goal (runContext.ts).
  const memory = fitToShare('memory', huge('MEM'), 8_000 * 0.08, tokens);
  assert.ok(tokens(memory) < 8_000 * 0.08 + 100, String(tokens(memory)));
  assert.match(memory, /MEM-START[\s\S]*MEM-END\n\[memory cut/);
});

test("gathered from the workspace: AGENTS.md, rules by name, MEMORY.md, skills, and the history's best hits for the goal", async () => {
  const ws = tempWorkspace({
    'AGENTS.md': '# Agents\nRun `make check` before finishing.\n',
    '.patchpilot/rules/b-style.md': 'Prefer small functions.\n',
    '.patchpilot/rules/a-security.md': 'Never log tokens.\n',
    '.patchpilot/rules/notes.txt': 'not a rule (not .md)\n',
    '.patchpilot/MEMORY.md': '# Memory\n\n- The date helpers live in src/date.ts.\n',
    '.patchpilot/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy to staging.\nalways: true\n---\nUse make deploy.\n',
  });
  const history = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    const run = await history.startRun({ goal: 'fix the date parsing test' });
    await history.recordQaSummary(
      run,
      'fix the date parsing test',
      'The parser in src/date.ts ignored time zones; fixed parseDate.\nTests: npm test passes.\nthird line',
    );
    await history.recordObservation({
      runId: run,
      tool: 'grep',
      insight: 'parseDate is defined in src/date.ts and used by src/report.ts',
      result: 'src/date.ts:3: export function parseDate(s) {',
      isError: false,
      path: 'src/date.ts',
    });
    await history.recordObservation({
      runId: run,
      tool: 'glob',
      insight: 'the build uses webpack and nothing about dates',
      result: 'webpack.config.js and build/ helpers for bundling',
      isError: false,
    });
    const ctx = fakeToolContext(ws.root);
    const reader = workspaceReader(ws.root, pathPolicyOf(ctx));
    const skills = await loadSkillCatalog({ bundledDir: BUNDLED, workspace: reader });
    const { sections, warnings } = await gatherPromptSections({ reader, skills, history, goal: 'the date parsing test fails again' });
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      sections.rules.map((r) => r.source),
      ['AGENTS.md', '.patchpilot/rules/a-security.md', '.patchpilot/rules/b-style.md'],
    );
    assert.equal(sections.memory?.text, '# Memory\n\n- The date helpers live in src/date.ts.\n');
    assert.deepEqual(
      sections.skills.map((s) => s.name),
      ['fix-failing-tests', 'refactor-safely', 'review-before-finish', 'write-tests'],
    );
    assert.deepEqual(sections.alwaysSkills, [{ name: 'deploy', text: 'Use make deploy.' }]);
    assert.match(
      sections.history[0]!,
      /^- \[\d{4}-\d{2}-\d{2}\] asked: fix the date parsing test\n {4}answer: The parser in src\/date\.ts ignored time zones; fixed parseDate\.\n {4}Tests: npm test passes\.$/,
    );
    assert.match(sections.history.join('\n'), /\[\d{4}-\d{2}-\d{2}, grep src\/date\.ts\] parseDate is defined in src\/date\.ts/);
    assert.ok(sections.history.length <= 5);
  } finally {
    await history.close();
    ws.cleanup();
  }
});

test('prompt files that lead outside the workspace or are ignored are left out with a warning; a link inside is read', async () => {
  const outside = mkdtempSync(path.join(tmpdir(), 'pp-agents-outside-'));
  const ws = tempWorkspace({
    'CLAUDE.md': 'Shared instructions.\n',
    '.patchpilot/rules/secret.md': 'TOKEN=abc\n',
    '.patchpilotignore': '.patchpilot/rules/secret.md\n',
  });
  const ws2 = tempWorkspace();
  try {
    writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE KEY\n');
    symlinkSync('CLAUDE.md', path.join(ws.root, 'AGENTS.md'));
    symlinkSync(path.join(outside, 'id_rsa'), path.join(ws2.root, 'AGENTS.md'));
    const gather = async (root: string) => {
      const reader = workspaceReader(root, pathPolicyOf(fakeToolContext(root)));
      return gatherPromptSections({ reader, skills: await loadSkillCatalog({ workspace: reader }), goal: 'g' });
    };
    const a = await gather(ws.root);
    assert.deepEqual(a.sections.rules, [{ source: 'AGENTS.md', text: 'Shared instructions.\n' }]);
    assert.match(a.warnings.join('\n'), /\.patchpilot\/rules\/secret\.md is not used in the prompt: .*patchpilotignore/);
    const b = await gather(ws2.root);
    assert.deepEqual(b.sections.rules, []);
    assert.match(b.warnings.join('\n'), /AGENTS\.md is not used in the prompt: .*outside the workspace/);
    assert.doesNotMatch(JSON.stringify([a, b]), /PRIVATE KEY|TOKEN=abc/);
  } finally {
    ws.cleanup();
    ws2.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});
