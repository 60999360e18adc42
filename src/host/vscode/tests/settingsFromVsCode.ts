import * as vscode from 'vscode';
import { buildSettings, SETTING_KEYS, validateSettingValue, type PatchPilotSettings, type SettingKey } from '../../../core/config/settings';

/**
 * The patchpilot.* settings as VS Code resolves them, validated by the core. In a restricted
 * (untrusted) window a trust-sensitive key is taken from the user settings only, unless the
 * workspace's value is one of its safe values. The ext-host session may pass its own resolver.
 */
export function settingsFromVsCode(): PatchPilotSettings {
  const config = vscode.workspace.getConfiguration();
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const key of Object.keys(SETTING_KEYS) as SettingKey[]) {
    const spec = SETTING_KEYS[key] as { trustSensitive?: boolean; safeValues?: readonly unknown[]; userOnly?: boolean };
    const inspected = config.inspect(key);
    let raw: unknown = spec.userOnly ? inspected?.globalValue : config.get(key);
    if (!vscode.workspace.isTrusted && spec.trustSensitive) {
      const fromWorkspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
      raw = fromWorkspace !== undefined && spec.safeValues?.includes(fromWorkspace) ? fromWorkspace : inspected?.globalValue;
    }
    if (raw === undefined || raw === null) continue;
    const v = validateSettingValue(key, raw);
    if (v.ok) values[key] = v.value;
  }
  return buildSettings(values);
}
