// The invariant "a workspace can tighten, never loosen or redirect", for every setting of the rule
// table (src/core/config/workspaceRules.ts), through both hosts' readers: the CLI's layers and VS
// Code's workspace and workspace-folder values. Shapes are generated from the table.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSettings, type ResolvedConfig } from '../../../src/core/config/resolve';
import { SETTING_KEYS, type SettingKey } from '../../../src/core/config/settings';
import { judgeWorkspaceValue } from '../../../src/core/config/workspaceRules';
import { readHostConfig } from '../../../src/host/vscode/config/settingsReader';
import { fakeConfiguration } from '../../support/fakeConfiguration';
import { validated, workspaceSettingShapes } from '../../support/workspaceSettingShapes';

type Reader = (user: Record<string, unknown>, workspace: Record<string, unknown>, trusted: boolean) => ResolvedConfig;

const READERS: Record<string, Reader> = {
  'CLI layers': (user, workspace, trusted) =>
    resolveSettings({
      layers: [
        { scope: 'user', origin: 'user file', values: user },
        { scope: 'workspace', origin: '.vscode/settings.json', values: workspace },
      ],
      trusted,
    }),
  'VS Code workspace value': (user, workspace, trusted) => readHostConfig({ configuration: fakeConfiguration({ user, workspace }), trusted }),
  'VS Code workspace-folder value': (user, folder, trusted) => readHostConfig({ configuration: fakeConfiguration({ user, folder }), trusted }),
};

const isConcat = (key: SettingKey) => 'concat' in SETTING_KEYS[key];
const honoured = (key: SettingKey, user: unknown, workspace: unknown): unknown =>
  isConcat(key) && Array.isArray(user) ? [...(validated(key, user) as unknown[]), ...(validated(key, workspace) as unknown[])] : validated(key, workspace);
const ignoredKeys = (r: ResolvedConfig) => r.ignored.map((i) => i.key);

describe('workspace rules: every setting, every host reader (generated shapes)', () => {
  for (const [name, read] of Object.entries(READERS)) {
    test(`${name}: an untrusted workspace's loosening, raising or redirecting value is ignored with a notice; tightening is honoured`, () => {
      for (const shape of workspaceSettingShapes()) {
        const { key } = shape;
        const r = read({ [key]: shape.user }, { [key]: shape.workspace }, false);
        if (shape.rule === 'free') {
          assert.deepEqual(r.values[key], honoured(key, shape.user, shape.workspace), `${key} (free)`);
          continue;
        }
        assert.ok(ignoredKeys(r).includes(key), `${key}: ${JSON.stringify(shape.workspace)} from the workspace must be reported as ignored`);
        if (key !== 'patchpilot.hooks') assert.deepEqual(r.values[key], validated(key, shape.user), `${key}: the user's value stays in effect`);
        else assert.equal((r.values[key] as unknown[]).length, 1, 'only the user hook');
        if (!shape.tighten) continue;
        const t = read({ [key]: shape.tighten.user }, { [key]: shape.tighten.workspace }, false);
        assert.deepEqual(ignoredKeys(t), [], `${key}: tightening to ${JSON.stringify(shape.tighten.workspace)} is honoured`);
        assert.deepEqual(t.values[key], validated(key, shape.tighten.workspace), `${key}: the workspace's tighter value`);
      }
    });

    test(`${name}: a trusted workspace may set all but the user-only settings`, () => {
      for (const shape of workspaceSettingShapes()) {
        const r = read({ [shape.key]: shape.user }, { [shape.key]: shape.workspace }, true);
        assert.equal(ignoredKeys(r).includes(shape.key), shape.rule === 'user', `${shape.key} (${shape.rule})`);
      }
    });
  }

  test('a limit the user did not set: the workspace may go below the default, not above it; no default means any value lowers', () => {
    assert.deepEqual(judgeWorkspaceValue('patchpilot.limits.maxSteps', 10, 50, false), { use: true });
    assert.equal(judgeWorkspaceValue('patchpilot.limits.maxSteps', 80, 50, false).use, false);
    assert.deepEqual(judgeWorkspaceValue('patchpilot.limits.maxCostUsd', 1000, undefined, false), { use: true });
    const r = READERS['CLI layers']!({}, { 'patchpilot.limits.maxSteps': 80, 'patchpilot.limits.wallClockMinutes': 5 }, false);
    assert.equal(r.settings.limits.maxSteps, 50);
    assert.equal(r.settings.limits.wallClockMinutes, 5);
    assert.match(r.ignored[0]!.reason, /may only lower this limit \(in effect: 50\)/);
  });

  test("the reported attacks: a step limit of 4 stays 4, .cursorrules stays off, the model stays the user's", () => {
    const user = { 'patchpilot.limits.maxSteps': 4, 'patchpilot.rules.cursor': false, 'patchpilot.llm.model': 'mine' };
    const workspace = { 'patchpilot.limits.maxSteps': 10, 'patchpilot.rules.cursor': true, 'patchpilot.llm.model': 'theirs' };
    for (const read of Object.values(READERS)) {
      const r = read(user, workspace, false);
      assert.equal(r.settings.limits.maxSteps, 4);
      assert.equal(r.settings.rules.cursor, false);
      assert.equal(r.settings.llm.model, 'mine');
    }
  });
});
