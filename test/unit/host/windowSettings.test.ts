// "This window only" settings (the test-command offer's choice): a layer in memory that goes through
// the same resolver and workspace rules as the settings files, and tells its readers when it changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readHostConfig } from '../../../src/host/vscode/config/settingsReader';
import { WINDOW_SETTINGS_ORIGIN, WindowSettings } from '../../../src/host/vscode/config/windowSettings';
import { fakeConfiguration } from '../../support/fakeConfiguration';

function resolveWith(windowSettings: WindowSettings, trusted: boolean, values: Parameters<typeof fakeConfiguration>[0] = {}) {
  const layer = windowSettings.layer();
  return readHostConfig({ configuration: fakeConfiguration(values), trusted, overrides: layer ? [layer] : [] });
}

test('a test command kept for this window only is in the resolved settings, named as such, and nothing else changes', () => {
  const w = new WindowSettings();
  assert.equal(w.layer(), undefined, 'nothing set: no layer');
  const changed: string[] = [];
  w.onDidChange((key) => changed.push(key));
  w.set('patchpilot.tests.commands', ['npm test']);
  assert.deepEqual(changed, ['patchpilot.tests.commands']);
  const c = resolveWith(w, true, { user: { 'patchpilot.approval.mode': 'auto-edit' } });
  assert.deepEqual(c.settings.tests.commands, ['npm test']);
  assert.equal(c.sources['patchpilot.tests.commands']?.origin, WINDOW_SETTINGS_ORIGIN);
  assert.equal(c.settings.approval.mode, 'auto-edit');
  // Above the settings files: the window's choice is the one in effect over the user's and the workspace's.
  assert.deepEqual(
    resolveWith(w, true, { user: { 'patchpilot.tests.commands': ['make lint'] }, workspace: { 'patchpilot.tests.commands': ['make check'] } }).settings.tests
      .commands,
    ['npm test'],
  );
});

test('the window layer is judged by the workspace rules: without trust its command does not count and is reported', () => {
  const w = new WindowSettings();
  w.set('patchpilot.tests.commands', ['npm test']);
  const c = resolveWith(w, false);
  assert.deepEqual(c.settings.tests.commands, []);
  assert.deepEqual(
    c.ignored.map((i) => [i.key, i.origin]),
    [['patchpilot.tests.commands', WINDOW_SETTINGS_ORIGIN]],
  );
});

test('clearing a key removes the layer; an invalid value is refused by the resolver; an unknown key is an error', () => {
  const w = new WindowSettings();
  w.set('patchpilot.tests.commands', 'npm test');
  assert.throws(() => resolveWith(w, true), /patchpilot\.tests\.commands \(from this window only \(not saved\)\)/);
  w.set('patchpilot.tests.commands', undefined);
  assert.equal(w.layer(), undefined);
  assert.throws(() => w.set('patchpilot.nope' as never, 1), /unknown setting patchpilot\.nope/);
});
