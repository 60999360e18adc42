import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findBundledSkillsDir } from '../../../src/core/context/skills/bundledDir';
import { loadSkillCatalog } from '../../../src/core/context/skills/skillCatalog';
import { parseSkillFile } from '../../../src/core/context/skills/skillFile';
import { workspaceReader } from '../../../src/core/context/workspaceText';
import { loadSkillTool } from '../../../src/core/tools/loadSkill';
import { pathPolicyOf } from '../../../src/core/tools/paths';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const BUNDLED = path.resolve(__dirname, '../../../skills');
const readerFor = (root: string) => workspaceReader(root, pathPolicyOf(fakeToolContext(root)));

test('the bundled skills: found from the CLI bundle and from source, each with a name, a description and its scripts', async () => {
  assert.equal(findBundledSkillsDir(path.resolve(__dirname, '../../../dist')), BUNDLED);
  assert.equal(findBundledSkillsDir(path.resolve(__dirname, '../../../src/cli/node')), BUNDLED);
  assert.equal(findBundledSkillsDir(tmpdir()), undefined);
  const catalog = await loadSkillCatalog({ bundledDir: BUNDLED });
  assert.deepEqual(catalog.warnings, []);
  assert.deepEqual(
    catalog.skills.map((s) => s.name),
    ['fix-failing-tests', 'refactor-safely', 'review-before-finish', 'write-tests'],
  );
  for (const s of catalog.skills) {
    assert.ok(s.description.length > 40, s.name);
    assert.equal(s.source, 'bundled');
    assert.ok((await s.read()).length > 500, s.name);
  }
  assert.deepEqual(catalog.find('write-tests')!.files, ['scripts/related-tests.sh']);
  assert.deepEqual(catalog.find('Review-Before-Finish')!.files, ['scripts/review-diff.sh']);
  assert.match(await catalog.find('write-tests')!.read('scripts/related-tests.sh'), /^#!\/bin\/sh/);
  await assert.rejects(catalog.find('write-tests')!.read('../fix-failing-tests/SKILL.md'), /not a file inside the skill's folder/);
  await assert.rejects(catalog.find('write-tests')!.read('/etc/passwd'), /not a file inside/);
});

test('front matter: the format other agents write loads as it is; what is wrong is named', () => {
  const claude = parseSkillFile(
    '---\nname: pdf-tools\ndescription: >\n  Extract text and tables\n  from PDF files.\nlicense: Apache-2.0\nallowed-tools: Read, Bash\nmetadata:\n  version: "1.2"\n---\n\n# PDF\n\nUse scripts/extract.py.\n',
    'pdf',
  );
  assert.deepEqual(claude, {
    ok: true,
    skill: { name: 'pdf-tools', description: 'Extract text and tables from PDF files.', always: false, body: '# PDF\n\nUse scripts/extract.py.' },
  });
  const spaced = parseSkillFile('---\nname: PDF Processing\ndescription: Work with PDFs.\n---\nx\n', 'pdf');
  assert.equal(spaced.ok && spaced.skill.name, 'PDF Processing');
  const crlf = parseSkillFile('\uFEFF---\r\ndescription: "Short: with a colon"\r\nalways: true\r\n---\r\nBody\r\n', 'folder-name');
  assert.deepEqual(crlf, { ok: true, skill: { name: 'folder-name', description: 'Short: with a colon', always: true, body: 'Body' } });
  const problems: [string, RegExp][] = [
    ['# no front matter\n', /no front matter/],
    ['---\nname: [unclosed\n---\nx', /not valid YAML/],
    ['---\n- a\n- b\n---\nx', /must be a YAML mapping/],
    ['---\nname: x\n---\nx', /"description" is required/],
    ['---\nname: a/b\ndescription: d\n---\n', /without slashes/],
    [`---\nname: ${'n'.repeat(65)}\ndescription: d\n---\n`, /at most 64 characters/],
    ['---\nname: x\ndescription: d\nalways: yes please\n---\n', /"always" must be true or false/],
  ];
  for (const [text, pattern] of problems) {
    const r = parseSkillFile(text, 'f');
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.problem, pattern);
  }
});

test('workspace skills override bundled ones of the same name; broken ones are reported, the rest load', async () => {
  const ws = tempWorkspace({
    '.patchpilot/skills/write-tests/SKILL.md':
      '---\nname: write-tests\ndescription: Our own way to write tests (vitest only).\n---\nUse vitest. Put tests in __tests__/.\n',
    '.patchpilot/skills/deploy/SKILL.md':
      '---\nname: deploy\ndescription: Deploy to staging.\nalways: true\n---\nRun `sh .patchpilot/skills/deploy/scripts/deploy.sh`.\n',
    '.patchpilot/skills/deploy/scripts/deploy.sh': '#!/bin/sh\necho deploying\n',
    '.patchpilot/skills/deploy/reference/env.md': 'STAGE=staging\n',
    '.patchpilot/skills/broken/SKILL.md': 'no front matter here\n',
    '.patchpilot/skills/empty-folder/readme.txt': 'not a skill\n',
  });
  try {
    const catalog = await loadSkillCatalog({ bundledDir: BUNDLED, workspace: readerFor(ws.root) });
    assert.deepEqual(
      catalog.skills.map((s) => `${s.name}:${s.source}`),
      ['deploy:workspace', 'fix-failing-tests:bundled', 'refactor-safely:bundled', 'review-before-finish:bundled', 'write-tests:workspace'],
    );
    assert.equal(catalog.find('write-tests')!.description, 'Our own way to write tests (vitest only).');
    assert.equal(await catalog.find('write-tests')!.read(), 'Use vitest. Put tests in __tests__/.');
    assert.deepEqual(
      catalog.always.map((s) => s.name),
      ['deploy'],
    );
    const deploy = catalog.find('deploy')!;
    assert.equal(deploy.location, '.patchpilot/skills/deploy');
    assert.deepEqual(deploy.files, ['reference/env.md', 'scripts/deploy.sh']);
    assert.equal(await deploy.read('reference/env.md'), 'STAGE=staging\n');
    assert.equal(catalog.warnings.length, 1);
    assert.match(catalog.warnings[0]!, /skill \.patchpilot\/skills\/broken\/SKILL\.md not loaded: no front matter/);
  } finally {
    ws.cleanup();
  }
});

test('workspace skills cannot reach outside: a linked folder is not listed, a linked SKILL.md is refused, ignored skills are hidden', async () => {
  const outside = mkdtempSync(path.join(tmpdir(), 'pp-skill-outside-'));
  const ws = tempWorkspace({
    '.patchpilot/skills/secret/SKILL.md': '---\nname: secret\ndescription: hidden by .patchpilotignore\n---\nx\n',
    '.patchpilotignore': '.patchpilot/skills/secret/\n',
  });
  try {
    mkdirSync(path.join(outside, 'evil'));
    writeFileSync(path.join(outside, 'evil', 'SKILL.md'), '---\nname: evil\ndescription: from outside\n---\nread ~/.ssh\n');
    writeFileSync(path.join(outside, 'id_rsa'), '---\nname: key\ndescription: a key\n---\nPRIVATE KEY\n');
    symlinkSync(path.join(outside, 'evil'), path.join(ws.root, '.patchpilot/skills/evil'));
    mkdirSync(path.join(ws.root, '.patchpilot/skills/linked'));
    symlinkSync(path.join(outside, 'id_rsa'), path.join(ws.root, '.patchpilot/skills/linked/SKILL.md'));
    const catalog = await loadSkillCatalog({ workspace: readerFor(ws.root) });
    assert.deepEqual(
      catalog.skills.map((s) => s.name),
      [],
    );
    assert.match(catalog.warnings.join('\n'), /linked\/SKILL\.md not loaded: .*outside the workspace/);
    assert.match(catalog.warnings.join('\n'), /secret\/SKILL\.md not loaded: .*patchpilotignore/);
  } finally {
    ws.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('load_skill: the instructions with the folder and its files; other files on request; unknown names list the available ones', async () => {
  const ws = tempWorkspace({
    '.patchpilot/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy.\n---\nRun the script.\n',
    '.patchpilot/skills/deploy/scripts/go.sh': 'echo go\n',
  });
  try {
    const ctx = fakeToolContext(ws.root);
    ctx.services.skills = await loadSkillCatalog({ bundledDir: BUNDLED, workspace: readerFor(ws.root) });
    const registry = new ToolRegistry([loadSkillTool]);
    const own = await registry.invoke('load_skill', { name: 'deploy' }, ctx);
    assert.equal(
      own.output,
      'Skill deploy (workspace; folder: .patchpilot/skills/deploy)\nFiles in its folder: scripts/go.sh (scripts run with run_command, e.g. `sh .patchpilot/skills/deploy/scripts/go.sh`; other files: load_skill with file)\n\nRun the script.',
    );
    const bundled = await registry.invoke('load_skill', { name: 'review-before-finish' }, ctx);
    assert.match(
      bundled.output,
      new RegExp(`^Skill review-before-finish \\(bundled; folder: ${BUNDLED.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/review-before-finish\\)`),
    );
    assert.match(bundled.output, /# Reviewing the diff before finishing/);
    assert.doesNotMatch(bundled.output, /^---$/m);
    assert.equal(
      (await registry.invoke('load_skill', { name: 'deploy', file: 'scripts/go.sh' }, ctx)).output,
      '.patchpilot/skills/deploy/scripts/go.sh:\necho go\n',
    );
    const missing = await registry.invoke('load_skill', { name: 'nope' }, ctx);
    assert.equal(missing.ok, false);
    assert.match(missing.output, /no skill named "nope"\. Available: deploy, fix-failing-tests, refactor-safely, review-before-finish, write-tests/);
    assert.match((await registry.invoke('load_skill', { name: 'deploy', file: '../../../.env' }, ctx)).output, /not a file inside the skill's folder/);
  } finally {
    ws.cleanup();
  }
});
