// A runner that names its own files in the package script takes an appended file as one more: the
// narrowed run calls the runner directly, known from the script's text before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directWhenFilesFixed, scriptChain } from '../../../src/core/testRuns';

const direct = (script: string, extra: Record<string, string> = {}) =>
  directWhenFilesFixed(scriptChain({ test: script, ...extra }, 'npm test'), 'npm test', { files: ['test/a.js'] })?.command;

test("globs, file lists and folders in the runner's own arguments: the runner directly, with its flags and without them", () => {
  assert.equal(direct('tap test/*.js --100'), 'npx tap --100 test/a.js');
  assert.equal(direct('tap --no-coverage test/*.js'), 'npx tap --no-coverage test/a.js');
  assert.equal(direct('mocha --require test/setup.js "test/**/*.spec.js"'), 'npx mocha --require test/setup.js test/a.js');
  assert.equal(direct('mocha --recursive test/unit'), 'npx mocha --recursive test/a.js');
  assert.equal(direct("nyc tape 'test/**/*.js'"), 'npx tape test/a.js');
  assert.equal(direct('TZ=UTC jest test/'), 'TZ=UTC npx jest test/a.js');
  assert.equal(direct('node --test test/'), 'node --test test/a.js');
});

test('a configured command that is no script can name its files too', () => {
  const aimed = directWhenFilesFixed([], 'npx tap --no-coverage test/*.js', { files: ['test/a.js'] });
  assert.equal(aimed?.command, 'npx tap --no-coverage test/a.js');
  assert.match(
    aimed!.note,
    /^the runner ran directly: `npx tap --no-coverage test\/\*\.js` lists its own files \(test\/\*\.js\), which would add the whole suite to yours$/,
  );
  assert.equal(aimed!.filesReachRunner, true);
});

test('what the script runs first still runs first: pretest, the steps before the runner, a script it calls', () => {
  assert.equal(direct('tap test/*.js', { pretest: 'npm run build' }), 'npm run pretest && npx tap test/a.js');
  assert.equal(direct('tsc -p . && mocha dist/test/*.js'), 'tsc -p . && npx mocha test/a.js');
  assert.equal(direct('npm run tests-only', { 'tests-only': "tape 'test/**/*.js'" }), 'npx tape test/a.js');
});

test('a runner that names no files of its own, or only flag values, takes the files as they are: undefined', () => {
  for (const script of ['jest', 'mocha', 'vitest run', 'tap', 'mocha --config test/.mocharc.js', "mocha --ignore 'test/fixtures/**'"])
    assert.equal(direct(script), undefined, script);
  assert.equal(
    directWhenFilesFixed(scriptChain({ test: 'tap test/*.js' }, 'npm test'), 'npm test', { name: 'adds' }),
    undefined,
    'a name narrows through the script',
  );
});
