// Generates, for every setting of the workspace rule table, the shapes that try the invariant "a
// workspace can tighten, never loosen or redirect": a user value and a workspace value that loosens,
// raises or redirects it, and (where the rule allows) a workspace value that tightens it. Shapes come
// from the rule and the setting's kind, so a new setting is tried without anyone writing its case.
import { SETTING_KEYS, type SettingKey } from '../../src/core/config/settings';
import { validateSettingValue } from '../../src/core/config/settingValues';
import { WORKSPACE_RULES } from '../../src/core/config/workspaceRules';

export interface SettingShape {
  key: SettingKey;
  rule: (typeof WORKSPACE_RULES)[SettingKey]['may'];
  /** The user's value, then a workspace value that would loosen, raise or redirect it. */
  user: unknown;
  workspace: unknown;
  /** Where the rule lets a workspace tighten: the user's looser value and the workspace's tighter one. */
  tighten?: { user: unknown; workspace: unknown };
}

/** Two distinct valid values of a kind: [the user's, another one a workspace would pick]. */
function twoValues(kind: string): [unknown, unknown] {
  switch (kind) {
    case 'string':
      return ['user-choice', 'workspace-choice'];
    case 'url':
      return ['http://127.0.0.1:7/v1', 'http://127.0.0.1:9/v1'];
    case 'mode':
      return ['ask', 'auto'];
    case 'string[]':
      return [['user-entry'], ['workspace-entry']];
    case 'absPath[]':
      return [['/user/app.sock'], ['/var/run/docker.sock']];
    case 'boolean':
      return [false, true];
    case 'posint':
    case 'posnum':
      return [4, 10];
    case 'onOffGlob':
      return ['off', 'on'];
    case 'mcpServers':
      return [{ mine: { command: 'user-server' } }, { theirs: { command: 'workspace-server' } }];
    case 'hooks':
      return [
        { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './user-hook.sh' }] }] },
        { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './workspace-hook.sh' }] }] },
      ];
    case 'searchProvider':
      return ['off', 'duckduckgo'];
    case 'modelTokens':
      return [{ m: 4000 }, { m: 900000 }];
    case 'object':
      return [{ m: { input: 10, output: 30 } }, { m: { input: 0, output: 0 } }];
    default:
      throw new Error(`no sample values for the kind ${kind}: add them here`);
  }
}

const PROVIDERS: [unknown, unknown] = ['openai', 'ollama'];

export function workspaceSettingShapes(): SettingShape[] {
  return (Object.keys(SETTING_KEYS) as SettingKey[]).map((key) => {
    const rule = WORKSPACE_RULES[key];
    const [a, b] = key === 'patchpilot.llm.provider' ? PROVIDERS : twoValues(SETTING_KEYS[key].kind);
    const shape: SettingShape = { key, rule: rule.may, user: a, workspace: b };
    if (rule.may === 'lower') shape.tighten = { user: b, workspace: a };
    if (rule.may === 'narrow') {
      const tight = rule.safeValues[0];
      const loose = [a, b].find((v) => !rule.safeValues.includes(v));
      Object.assign(shape, { user: tight, workspace: loose, tighten: { user: loose, workspace: tight } });
    }
    if (rule.may === 'free') shape.tighten = { user: a, workspace: b };
    for (const value of [shape.user, shape.workspace, shape.tighten?.user, shape.tighten?.workspace]) {
      if (value === undefined) continue;
      const checked = validateSettingValue(key, value, 'user');
      if (!checked.ok) throw new Error(`the generated value ${JSON.stringify(value)} of ${key} is invalid: ${checked.message}`);
    }
    return shape;
  });
}

/** The value a setting takes once validated (booleans of onOffGlob become "on"/"off", strings are trimmed). */
export function validated(key: SettingKey, value: unknown): unknown {
  const checked = validateSettingValue(key, value, 'user');
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}
