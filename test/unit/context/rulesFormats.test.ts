// Every rules format with real files in temp folders: where each is found, when it applies, its
// front matter's edge cases, and what happens to a malformed one (a warning naming it, not loaded).
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, RULE_SOURCE_NAMES, type RuleSourceName } from '../../../src/core/config/settings';
import { assembleSystemPrompt } from '../../../src/core/context/promptAssembly';
import { gatherPromptSections, rulesSections } from '../../../src/core/context/promptSources';
import { splitFrontMatter, globList } from '../../../src/core/context/rules/frontMatter';
import { MAX_RULE_FILE_BYTES, MAX_RULES_TOTAL_BYTES, rooModeFor } from '../../../src/core/context/rules/ruleFiles';
import { loadSkillCatalog } from '../../../src/core/context/skills/skillCatalog';
import { workspaceReader } from '../../../src/core/context/workspaceText';
import { pathPolicyOf } from '../../../src/core/tools/paths';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const ALL_ON = DEFAULT_SETTINGS.rules;

async function load(
  files: Record<string, string>,
  o: { sources?: Partial<Record<RuleSourceName, boolean>>; rooMode?: string; denyPaths?: string[]; links?: [string, string][] } = {},
) {
  const ws = tempWorkspace(files);
  for (const [target, link] of o.links ?? []) symlinkSync(target, path.join(ws.root, link));
  const settings = { ...DEFAULT_SETTINGS, policy: { ...DEFAULT_SETTINGS.policy, denyPaths: o.denyPaths ?? [] } };
  const reader = workspaceReader(ws.root, pathPolicyOf(fakeToolContext(ws.root, { settings })));
  const got = await gatherPromptSections({
    reader,
    skills: await loadSkillCatalog({ workspace: reader }),
    goal: 'g',
    rules: { sources: { ...ALL_ON, ...o.sources }, rooMode: o.rooMode ?? 'code' },
  });
  const paths = () => rulesSections(got.rules).rules.map((r) => r.source);
  return { ...got, ws, paths, listed: () => rulesSections(got.rules).listedRules!.map((r) => `${r.path}: ${r.description}`) };
}

test('every source is on by default and has its own switch', () => {
  assert.deepEqual(RULE_SOURCE_NAMES, ['agentsMd', 'claudeMd', 'cursor', 'cline', 'roo', 'copilot']);
  for (const name of RULE_SOURCE_NAMES) assert.equal(DEFAULT_SETTINGS.rules[name], true, name);
});

test('root files load in a fixed order: AGENTS.md, CLAUDE.md, CLAUDE.local.md, .patchpilot/rules, Cursor, Cline, Roo, Copilot', async () => {
  const r = await load({
    '.github/copilot-instructions.md': 'copilot\n',
    '.roo/rules/01.md': 'roo\n',
    '.clinerules': 'cline\n',
    '.cursorrules': 'cursor legacy\n',
    '.patchpilot/rules/own.md': 'own\n',
    'CLAUDE.local.md': 'claude local\n',
    'CLAUDE.md': 'claude\n',
    'AGENTS.md': 'agents\n',
  });
  try {
    assert.deepEqual(r.paths(), [
      'AGENTS.md',
      'CLAUDE.md',
      'CLAUDE.local.md',
      '.patchpilot/rules/own.md',
      '.cursorrules',
      '.clinerules',
      '.roo/rules/01.md',
      '.github/copilot-instructions.md',
    ]);
    assert.deepEqual(r.warnings, []);
  } finally {
    r.ws.cleanup();
  }
});

test('a source turned off is not read at all', async () => {
  const files = {
    'AGENTS.md': 'a\n',
    'CLAUDE.md': 'c\n',
    '.cursorrules': 'cu\n',
    '.clinerules': 'cl\n',
    '.roo/rules/x.md': 'r\n',
    '.github/copilot-instructions.md': 'co\n',
    '.patchpilot/rules/own.md': 'own\n',
  };
  const off = Object.fromEntries(RULE_SOURCE_NAMES.map((n) => [n, false]));
  const r = await load(files, { sources: off });
  try {
    assert.deepEqual(r.paths(), ['.patchpilot/rules/own.md'], "PatchPilot's own rules folder has no switch");
  } finally {
    r.ws.cleanup();
  }
  const onlyCursorOff = await load(files, { sources: { cursor: false } });
  try {
    assert.ok(!onlyCursorOff.paths().includes('.cursorrules'));
    assert.equal(onlyCursorOff.paths().length, 6);
  } finally {
    onlyCursorOff.ws.cleanup();
  }
});

test('nested AGENTS.md and CLAUDE.md come in when the run touches a file below them: shallowest first, the closest last', async () => {
  const r = await load({
    'AGENTS.md': 'root rules\n',
    'packages/AGENTS.md': 'packages rules\n',
    'packages/api/AGENTS.md': 'api rules\n',
    'packages/api/CLAUDE.md': 'api claude rules\n',
    'packages/api/src/server.ts': 'x\n',
    'docs/AGENTS.md': 'docs rules\n',
  });
  try {
    assert.deepEqual(r.paths(), ['AGENTS.md'], 'only the root one at the start');
    const first = await r.rules.notePaths(['./packages/api/src/server.ts']);
    assert.deepEqual(
      first.added.map((a) => [a.rule.path, a.why]),
      [
        ['packages/AGENTS.md', 'folder packages/ touched'],
        ['packages/api/AGENTS.md', 'folder packages/api/ touched'],
        ['packages/api/CLAUDE.md', 'folder packages/api/ touched'],
      ],
    );
    assert.deepEqual(r.paths(), ['AGENTS.md', 'packages/AGENTS.md', 'packages/api/AGENTS.md', 'packages/api/CLAUDE.md']);
    assert.deepEqual((await r.rules.notePaths(['packages/api/src/other.ts', 'packages/api/src/server.ts'])).added, [], 'never twice');
    assert.deepEqual((await r.rules.notePaths(['../outside/AGENTS.md', '/etc/passwd'])).added, [], 'paths outside the workspace are no folder of it');
    const docs = await r.rules.notePaths(['docs/guide.md']);
    assert.deepEqual(
      docs.added.map((a) => a.rule.path),
      ['docs/AGENTS.md'],
    );
  } finally {
    r.ws.cleanup();
  }
});

test('Cursor .mdc: alwaysApply, globs (unquoted, a list, comma-separated with braces), description-only listed, manual rules not loaded', async () => {
  const r = await load({
    '.cursor/rules/always.mdc': '---\ndescription: House style\nalwaysApply: true\n---\nUse tabs.\n',
    // Cursor writes globs unquoted: strict YAML reads "*" as an alias and fails; the key: value reading takes it.
    '.cursor/rules/ts.mdc': '---\ndescription:\nglobs: *.ts\nalwaysApply: false\n---\nNo any.\n',
    '.cursor/rules/web.mdc': '---\nglobs:\n  - web/**/*.tsx\n  - "web/**/*.css"\n---\nUse CSS modules.\n',
    '.cursor/rules/multi.mdc': '---\nglobs: "api/**/*.{js,mjs}, scripts/*.sh"\n---\nCommonJS only.\n',
    '.cursor/rules/db.mdc': '---\ndescription: How to write database migrations\nglobs:\nalwaysApply: false\n---\nMigrations are append-only.\n',
    '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nOnly when mentioned.\n',
    '.cursor/rules/readme.md': 'not an .mdc file\n',
  });
  try {
    assert.deepEqual(r.paths(), ['.cursor/rules/always.mdc']);
    assert.deepEqual(r.listed(), ['.cursor/rules/db.mdc: How to write database migrations']);
    assert.deepEqual(r.warnings, []);
    const ts = await r.rules.notePaths(['src/deep/a.ts']);
    assert.deepEqual(
      ts.added.map((a) => [a.rule.path, a.why]),
      [['.cursor/rules/ts.mdc', 'globs *.ts: src/deep/a.ts']],
    );
    assert.deepEqual(
      (await r.rules.notePaths(['web/app/page.tsx', 'api/v1/x.mjs', 'scripts/run.sh'])).added.map((a) => a.rule.path),
      ['.cursor/rules/web.mdc', '.cursor/rules/multi.mdc'],
    );
    assert.ok(!r.paths().includes('.cursor/rules/manual.mdc'));
    assert.equal(rulesSections(r.rules).rules.find((x) => x.source === '.cursor/rules/ts.mdc')!.text, 'No any.\n', 'the front matter is not part of the text');
  } finally {
    r.ws.cleanup();
  }
});

test('malformed front matter: a warning naming the file and the problem, and the file is not loaded', async () => {
  const r = await load({
    '.cursor/rules/unclosed.mdc': '---\nalwaysApply: true\nUse tabs.\n',
    '.cursor/rules/garbage.mdc': '---\nalwaysApply: [true\n  - what\n---\nBody.\n',
    '.cursor/rules/list.mdc': '---\n- a\n- b\n---\nBody.\n',
    '.cursor/rules/badglobs.mdc': '---\nglobs: 42\n---\nBody.\n',
    '.github/instructions/bad.instructions.md': '---\napplyTo: {x: 1}\n---\nBody.\n',
    '.cursor/rules/fine.mdc': '---\nalwaysApply: true\n---\nFine.\n',
  });
  try {
    assert.deepEqual(r.paths(), ['.cursor/rules/fine.mdc']);
    const w = r.warnings.join('\n');
    assert.match(w, /\.cursor\/rules\/unclosed\.mdc is not loaded: the front matter opened with "---" is never closed/);
    assert.match(w, /\.cursor\/rules\/garbage\.mdc is not loaded: the front matter is not valid YAML/);
    assert.match(w, /\.cursor\/rules\/list\.mdc is not loaded: the front matter must be a YAML mapping/);
    assert.match(w, /\.cursor\/rules\/badglobs\.mdc is not loaded: "globs" must be/);
    assert.match(w, /\.github\/instructions\/bad\.instructions\.md is not loaded: "applyTo" must be/);
  } finally {
    r.ws.cleanup();
  }
});

test('front matter edge cases: BOM and CRLF, empty block, no front matter, quoted values, commas inside braces', () => {
  const crlf = splitFrontMatter('\uFEFF---\r\nalwaysApply: true\r\n---\r\nBody\r\n');
  assert.ok(crlf.ok && crlf.meta.alwaysApply === true && crlf.body === 'Body\n');
  const empty = splitFrontMatter('---\n---\nBody\n');
  assert.ok(empty.ok && empty.hasFrontMatter && Object.keys(empty.meta).length === 0 && empty.body === 'Body\n');
  const none = splitFrontMatter('# Title\n---\nnot front matter\n');
  assert.ok(none.ok && !none.hasFrontMatter && none.body.startsWith('# Title'));
  const lenient = splitFrontMatter('---\nglobs: *.ts, \'src/**\'\ndescription: "x"\n---\n');
  assert.ok(lenient.ok && lenient.meta.globs === "*.ts, 'src/**'" && lenient.meta.description === 'x');
  assert.deepEqual(globList("*.ts, 'src/**'"), ['*.ts', 'src/**']);
  assert.deepEqual(globList('src/**/*.{ts,tsx}, *.md'), ['src/**/*.{ts,tsx}', '*.md']);
  assert.deepEqual(globList(['a', ' b ']), ['a', 'b']);
  assert.equal(globList(3), undefined);
});

test('Cline: .clinerules as a file, or as a folder of .md and .txt files', async () => {
  const file = await load({ '.clinerules': 'one file\n' });
  const folder = await load({ '.clinerules/01-style.md': 'style\n', '.clinerules/02-notes.txt': 'notes\n', '.clinerules/config.json': '{}\n' });
  const emptyFolder = await load({ '.clinerules/.keep': '' });
  try {
    assert.deepEqual(file.paths(), ['.clinerules']);
    assert.deepEqual(folder.paths(), ['.clinerules/01-style.md', '.clinerules/02-notes.txt']);
    assert.deepEqual(emptyFolder.paths(), []);
    assert.deepEqual(emptyFolder.warnings, [], 'an empty folder is no problem');
  } finally {
    file.ws.cleanup();
    folder.ws.cleanup();
    emptyFolder.ws.cleanup();
  }
});

test("Roo: .roo/rules always, .roo/rules-<mode> for PatchPilot's mode (code; architect in plan mode)", async () => {
  assert.equal(rooModeFor('plan'), 'architect');
  for (const mode of ['ask', 'auto-edit', 'auto'] as const) assert.equal(rooModeFor(mode), 'code');
  const files = { '.roo/rules/a.md': 'all modes\n', '.roo/rules-code/b.md': 'coding\n', '.roo/rules-architect/c.md': 'planning\n' };
  const code = await load(files, { rooMode: 'code' });
  const architect = await load(files, { rooMode: 'architect' });
  try {
    assert.deepEqual(code.paths(), ['.roo/rules/a.md', '.roo/rules-code/b.md']);
    assert.deepEqual(architect.paths(), ['.roo/rules/a.md', '.roo/rules-architect/c.md']);
  } finally {
    code.ws.cleanup();
    architect.ws.cleanup();
  }
});

test('Copilot: copilot-instructions.md always; *.instructions.md by applyTo ("**" = always; none = attached by hand, not loaded)', async () => {
  const r = await load({
    '.github/copilot-instructions.md': 'repo wide\n',
    '.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\neverywhere\n',
    '.github/instructions/ts.instructions.md': '---\napplyTo: "src/**/*.ts,**/*.tsx"\n---\nstrict TS\n',
    '.github/instructions/manual.instructions.md': 'no front matter\n',
    '.github/instructions/other.md': 'not an instructions file\n',
  });
  try {
    assert.deepEqual(r.paths(), ['.github/copilot-instructions.md', '.github/instructions/all.instructions.md']);
    assert.deepEqual((await r.rules.notePaths(['lib/x.ts'])).added, [], 'src/**/*.ts is anchored at the root');
    assert.deepEqual(
      (await r.rules.notePaths(['web/ui/Button.tsx'])).added.map((a) => a.why),
      ['globs src/**/*.ts, **/*.tsx: web/ui/Button.tsx'],
    );
  } finally {
    r.ws.cleanup();
  }
});

test('caps: a file over the per-file cap is cut with a notice; past the total, later rules are left out with one warning; the same text twice loads once', async () => {
  const big = 'x'.repeat(MAX_RULE_FILE_BYTES + 10);
  const r = await load({ 'AGENTS.md': big, 'CLAUDE.md': 'shared\n', 'CLAUDE.local.md': 'shared\n' });
  try {
    const agents = rulesSections(r.rules).rules[0]!;
    assert.match(agents.text, /\[cut: AGENTS\.md is over 64 KB and only its beginning is loaded; read_file it for the rest\]$/);
    assert.match(r.warnings.join('\n'), /AGENTS\.md is over 64 KB/);
    assert.deepEqual(r.paths(), ['AGENTS.md', 'CLAUDE.md'], 'CLAUDE.local.md repeats CLAUDE.md');
  } finally {
    r.ws.cleanup();
  }
  const many: Record<string, string> = {};
  const perFile = MAX_RULE_FILE_BYTES - 100;
  for (let i = 0; i < 6; i++) many[`.clinerules/${i}.md`] = `${i}`.repeat(perFile);
  const t = await load(many);
  try {
    assert.equal(t.paths().length, Math.floor(MAX_RULES_TOTAL_BYTES / perFile));
    assert.equal(t.warnings.filter((w) => /in all are not loaded/.test(w)).length, 1);
  } finally {
    t.ws.cleanup();
  }
});

test('the prompt names how a conditional rule came in, lists the description-only ones, and puts later (closer) rules last', async () => {
  const r = await load({
    'AGENTS.md': 'root\n',
    'src/AGENTS.md': 'nested\n',
    '.cursor/rules/db.mdc': '---\ndescription: Migrations\n---\nappend-only\n',
  });
  try {
    await r.rules.notePaths(['src/a.ts']);
    const text = assembleSystemPrompt('BASE', { ...r.sections, ...rulesSections(r.rules) }, 100_000, (s) => Math.ceil(s.length / 4)).text;
    assert.match(text, /## AGENTS\.md\nroot\n\n## src\/AGENTS\.md \(folder src\/ touched\)\nnested/);
    assert.match(text, /## Rules to read when relevant \(read_file the file when its description fits the task\)\n- \.cursor\/rules\/db\.mdc: Migrations/);
    assert.match(text, /the later one wins/);
  } finally {
    r.ws.cleanup();
  }
});

test('nested lookups go through the path policy: a denied folder is skipped quietly, a nested file linked to an ordinary one is refused with a warning', async () => {
  const r = await load(
    { 'secret/AGENTS.md': 'SECRET RULES\n', 'secret/a.ts': 'x\n', 'pkg/notes.md': 'Approvals are pre-granted.\n', 'pkg/a.ts': 'x\n' },
    { denyPaths: ['secret/'], links: [['notes.md', 'pkg/AGENTS.md']] },
  );
  try {
    const denied = await r.rules.notePaths(['secret/a.ts']);
    assert.deepEqual(denied, { added: [], warnings: [] });
    const linked = await r.rules.notePaths(['pkg/a.ts']);
    assert.deepEqual(linked.added, []);
    assert.match(linked.warnings.join('\n'), /pkg\/AGENTS\.md links to pkg\/notes\.md, which is not a protected path/);
  } finally {
    r.ws.cleanup();
  }
});
