import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import { grepWithJs } from '../../../src/core/tools/grepJs';
import { findRipgrep, grepWithRipgrep } from '../../../src/core/tools/grepRipgrep';
import { fileGlob } from '../../../src/core/tools/globPattern';
import { grepTool } from '../../../src/core/tools/grep';
import { RegexWorker } from '../../../src/core/tools/regexWorker';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { GrepOutcome, GrepQuery } from '../../../src/core/tools/grepTypes';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { gitInit, tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const rg = findRipgrep();
const files = {
  '.gitignore': 'build/\n*.tmp\n',
  '.patchpilotignore': '.env\nvault/\n',
  '.env': 'TOKEN=needle-secret\n',
  'vault/keys.txt': 'needle in the vault\n',
  'build/out.js': 'needle();\n',
  'scratch.tmp': 'needle\n',
  'src/a.ts': 'const needle = 1;\nexport default needle;\n',
  'src/b.js': 'function needle() {}\n',
  'src/nested/c.ts': 'no match here\n// Needle with capital\nneedle\n',
  '.config/tool.json': '{"needle": true}\n',
  'bin.dat': 'needle\0binary',
};

type Engine = (q: GrepQuery) => Promise<GrepOutcome>;
const engines: [string, Engine][] = [['js', grepWithJs]];
if (rg) engines.push(['ripgrep', (q) => grepWithRipgrep(rg, q)]);

function query(root: string, extra: Partial<GrepQuery> = {}): GrepQuery {
  return {
    root,
    fs: new NodeWorkspaceFs(root),
    pattern: 'needle',
    path: '',
    maxMatches: 100,
    rules: new IgnoreRules(root),
    signal: new AbortController().signal,
    ...extra,
  };
}
const show = (o: GrepOutcome) => o.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);

describe('grep: ripgrep and the JS fallback see the same files', () => {
  test('ripgrep is installed here, so both engines are compared', { skip: rg ? false : 'rg not on PATH' }, () => {
    assert.ok(rg);
  });

  for (const repo of [true, false]) {
    for (const [name, engine] of engines) {
      test(`${name} in a ${repo ? 'git repository' : 'plain folder'}: .gitignore and .patchpilotignore respected, binaries skipped`, async () => {
        const ws = tempWorkspace(files);
        try {
          if (repo) gitInit(ws.root);
          const out = await engine(query(ws.root));
          assert.deepEqual(show(out), [
            '.config/tool.json:1: {"needle": true}',
            'src/a.ts:1: const needle = 1;',
            'src/a.ts:2: export default needle;',
            'src/b.js:1: function needle() {}',
            'src/nested/c.ts:3: needle',
          ]);
          assert.deepEqual(show(await engine(query(ws.root, { include: fileGlob('*.ts'), path: 'src' }))), [
            'src/a.ts:1: const needle = 1;',
            'src/a.ts:2: export default needle;',
            'src/nested/c.ts:3: needle',
          ]);
          assert.deepEqual(show(await engine(query(ws.root, { pattern: '[Nn]eedle w', path: 'src/nested' }))), ['src/nested/c.ts:2: // Needle with capital']);
          const capped = await engine(query(ws.root, { maxMatches: 2 }));
          assert.equal(capped.matches.length, 2);
          assert.equal(capped.truncated, true);
        } finally {
          ws.cleanup();
        }
      });
    }
  }

  for (const [name, engine] of engines) {
    test(`${name}: an invalid regular expression is a clear error`, async () => {
      const ws = tempWorkspace({ 'a.txt': 'x' });
      try {
        await assert.rejects(engine(query(ws.root, { pattern: 'a(b' })), /invalid regular expression/);
      } finally {
        ws.cleanup();
      }
    });
  }
});

describe('grep tool', () => {
  test('formats path:line: text, says when nothing matched, refuses paths outside', async () => {
    const ws = tempWorkspace(files);
    try {
      const tools = new ToolRegistry([grepTool]);
      const ctx = fakeToolContext(ws.root);
      const r = await tools.invoke('grep', { pattern: 'export default', include: '*.ts' }, ctx);
      assert.equal(r.output, 'src/a.ts:2: export default needle;');
      assert.equal(r.data?.engine, rg ? 'ripgrep' : 'js');
      assert.match((await tools.invoke('grep', { pattern: 'zzz' }, ctx)).output, /no matches/);
      assert.match((await tools.invoke('grep', { pattern: 'x', path: '..' }, ctx)).output, /outside the workspace/);
      assert.match((await tools.invoke('grep', { pattern: 'TOKEN', path: '.env' }, ctx)).output, /\.patchpilotignore/);
    } finally {
      ws.cleanup();
    }
  });

  test('long matching lines are cut', async () => {
    const ws = tempWorkspace({ 'min.js': 'x'.repeat(5000) + 'needle' + 'y'.repeat(5000) });
    try {
      for (const [, engine] of engines) {
        const out = await engine(query(ws.root, { pattern: 'x+needle' }));
        assert.ok(out.matches[0]!.text.length <= 310, `line of ${out.matches[0]!.text.length}`);
      }
    } finally {
      ws.cleanup();
    }
  });
});

describe('grep JS fallback: a catastrophic regex', () => {
  test('is stopped by the time cap with a clear error; the main thread stays free', async () => {
    let ticks = 0;
    const beat = setInterval(() => ticks++, 20);
    const t = Date.now();
    try {
      const worker = new RegexWorker('^(a+)+$', 10, new AbortController().signal, 500);
      await assert.rejects(worker.match(`${'a'.repeat(40)}!`), /ran longer than [^]*simplify it/);
      await worker.close();
    } finally {
      clearInterval(beat);
    }
    assert.ok(Date.now() - t < 3000, `stopped after ${Date.now() - t} ms`);
    assert.ok(ticks >= 10, `the event loop kept turning (${ticks} ticks)`);
  });
  test('an ordinary pattern matches as before', async () => {
    const worker = new RegexWorker('fo+', 10, new AbortController().signal);
    assert.deepEqual(await worker.match('a\nfoo\nbar\nfo'), [1, 3]);
    await worker.close();
  });
});
