import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exampleGoals } from '../../../src/core/workspace';

function probe(tree: Record<string, string[]>) {
  return { read: async () => undefined, list: async (rel: string) => tree[rel] ?? [] };
}

test('example goals fit the project: its test command, its main language and a source file', async () => {
  const ts = probe({ '.': ['package.json', 'src', 'node_modules', 'README.md'], src: ['index.ts', 'util.ts', 'index.test.ts'] });
  assert.deepEqual(await exampleGoals(ts, 'npm test'), [
    'run the tests (npm test) and fix what fails',
    'add a test for src/index.ts',
    'explain how this TypeScript project is organized',
  ]);
  const py = probe({ '.': ['app.py', 'README.md'] });
  assert.deepEqual(await exampleGoals(py, undefined), ['explain what app.py does and suggest one improvement', 'explain how this Python project is organized']);
  assert.deepEqual(await exampleGoals(probe({ '.': ['README.md'] }), undefined), ['explain how this project is organized']);
  const sample = probe({ '.': ['dates.js', 'test.js', 'package.json'] });
  assert.equal((await exampleGoals(sample, 'npm test'))[0], 'make the failing date test pass');
});
