import { TelemetryConfigError, startTelemetry, type Telemetry } from '../../core/telemetry';
import { ConfigError, loadCliConfig, type PatchPilotSettings } from '../../core/config';
import type { Notifier } from '../../core/ports';

/**
 * The CLI's telemetry from the user's settings and the OTEL_* variables: undefined when off, a
 * message (a settings error, exit 2) when a value is wrong.
 */
export async function startCliTelemetry(settings: PatchPilotSettings, notifier: Notifier): Promise<Telemetry | undefined | string> {
  try {
    return await startTelemetry(settings.telemetry, process.env, (message) => notifier.warn(message));
  } catch (err) {
    if (err instanceof TelemetryConfigError) return `telemetry: ${err.message}`;
    throw err;
  }
}

/** `patchpilot restore` wrote files: counted in patchpilot.checkpoints.restored when telemetry is on. */
export async function recordCliRestore(root: string, files: number, notifier: Notifier): Promise<void> {
  let settings: PatchPilotSettings;
  try {
    settings = loadCliConfig({ workspace: root, env: process.env, flags: {}, trusted: false }).settings;
  } catch (err) {
    if (err instanceof ConfigError) return;
    throw err;
  }
  const telemetry = await startCliTelemetry(settings, notifier);
  if (typeof telemetry === 'string') return notifier.warn(telemetry);
  telemetry?.checkpointRestored(files);
  await telemetry?.shutdown();
}
