// package.json's settings (what the Settings UI shows and Restricted Mode withholds) against the
// core's SETTING_KEYS (what the extension and the CLI read): a key in one and not the other is a
// setting nobody can edit, or one edited for nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SETTING_KEYS, type SettingKey } from '../../../src/core/config/settings';
import { WORKSPACE_RULES } from '../../../src/core/config/workspaceRules';

interface PropertySchema {
  type?: string | string[];
  default?: unknown;
}
const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, PropertySchema> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const properties = manifest.contributes.configuration.properties;
const coreKeys = Object.keys(SETTING_KEYS) as SettingKey[];
const spec = (key: SettingKey): { kind: string } => SETTING_KEYS[key];

describe('package.json settings match the core settings', () => {
  test('every core setting is contributed, and every contributed setting is read by the core', () => {
    const contributed = Object.keys(properties).filter((k) => k.startsWith('patchpilot.'));
    assert.deepEqual(
      coreKeys.filter((k) => !contributed.includes(k)),
      [],
      'in SETTING_KEYS but not in package.json',
    );
    assert.deepEqual(
      contributed.filter((k) => !(coreKeys as string[]).includes(k)),
      [],
      'in package.json but not in SETTING_KEYS',
    );
  });

  test('every contributed setting has a workspace rule (what a workspace may do with it)', () => {
    const contributed = Object.keys(properties).filter((k) => k.startsWith('patchpilot.'));
    assert.deepEqual(
      contributed.filter((k) => !Object.prototype.hasOwnProperty.call(WORKSPACE_RULES, k)),
      [],
      'a setting without a row in src/core/config/workspaceRules.ts',
    );
  });

  test('Restricted Mode withholds exactly the settings an untrusted workspace may not set at all (tightening ones stay visible to the core)', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const sensitive = coreKeys.filter((k) => WORKSPACE_RULES[k].may === 'trusted' || WORKSPACE_RULES[k].may === 'user');
    assert.deepEqual(
      sensitive.filter((k) => !restricted.includes(k)),
      [],
      'trust-sensitive but not restricted',
    );
    assert.deepEqual(
      restricted.filter((k) => !(sensitive as string[]).includes(k)),
      [],
      'restricted but not trust-sensitive',
    );
  });

  test('text settings are plain strings with an empty default, so the Settings UI edits them in place', () => {
    // ["string", "null"] renders only "Edit in settings.json"; the core reads "" as unset.
    for (const key of coreKeys.filter((k) => spec(k).kind === 'string' || spec(k).kind === 'url')) {
      const schema = properties[key]!;
      assert.equal(schema.type, 'string', `${key} type`);
      assert.equal(typeof schema.default, 'string', `${key} default`);
    }
    for (const key of ['patchpilot.llm.provider', 'patchpilot.llm.baseUrl', 'patchpilot.llm.model', 'patchpilot.llm.fastModel']) {
      assert.equal(properties[key]?.default, '', `${key} defaults to empty (unset)`);
    }
  });
});
