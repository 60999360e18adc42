/**
 * Settings chosen for this window only (the test-command offer's "This Window Only"): kept in memory,
 * never written, gone when the window closes. They are one more layer into the core's resolver, so
 * the same rules judge them as any workspace value (core/config/workspaceRules.ts): a window layer is
 * a workspace-scoped layer, counted only while the workspace is trusted. No `vscode` import: plain
 * Node unit tests drive it (test/unit/host/windowSettings.test.ts).
 */
import { Emitter } from '../../../core/base';
import type { SettingsLayer } from '../../../core/config';
import { SETTING_KEYS, type SettingKey } from '../../../core/config';

/** How the window's values are named in the resolved settings' sources and in "ignored" reports. */
export const WINDOW_SETTINGS_ORIGIN = 'this window only (not saved)';

export class WindowSettings {
  private readonly values: Partial<Record<SettingKey, unknown>> = {};
  private readonly changed = new Emitter<SettingKey>();
  /** A value was set or cleared: what reads the settings reads them again (as for a configuration change). */
  readonly onDidChange = this.changed.event;

  /** Sets (or, with undefined, clears) a key for this window; an unknown key is a programming error. */
  set(key: SettingKey, value: unknown): void {
    if (!(key in SETTING_KEYS)) throw new Error(`unknown setting ${String(key)}`);
    if (value === undefined) delete this.values[key];
    else this.values[key] = value;
    this.changed.fire(key);
  }

  get(key: SettingKey): unknown {
    return this.values[key];
  }

  /** The layer for the resolver, above the workspace's own settings; none while nothing is set. */
  layer(): SettingsLayer | undefined {
    if (Object.keys(this.values).length === 0) return undefined;
    return { scope: 'workspace', origin: WINDOW_SETTINGS_ORIGIN, values: { ...this.values } };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
