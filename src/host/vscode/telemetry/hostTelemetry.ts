/**
 * The extension's telemetry: one per extension host (a long-lived process, so the place for a
 * Prometheus endpoint), started from the user's patchpilot.telemetry.* settings and the OTEL_*
 * variables, restarted when those settings change. Off: nothing of OpenTelemetry is loaded.
 */
import { resolveTelemetryConfig, startTelemetry, TelemetryConfigError, type Telemetry } from '../../../core/telemetry';
import type { PatchPilotSettings } from '../../../core/config';
import { errorMessage } from '../../../core/base';
import type { AgentEvent } from '../../../protocol/agentEvents';

/** The key of "off": what JSON.stringify gives for no configuration. */
const OFF = 'null';

export class HostTelemetry {
  private current: Telemetry | undefined;
  private key = OFF;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly settingsNow: () => PatchPilotSettings,
    private readonly log: { info(m: string): void; warn(m: string): void },
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  /** (Re)reads the settings: starts, stops or restarts telemetry when what is in force changed. Resolves when done. */
  reload(): Promise<void> {
    this.queue = this.queue.then(() => this.apply());
    return this.queue;
  }

  onEvent(e: AgentEvent): void {
    this.current?.onEvent(e);
  }

  checkpointRestored(files: number): void {
    this.current?.checkpointRestored(files);
  }

  dispose(): Promise<void> {
    this.key = OFF;
    const stopping = this.current?.shutdown();
    this.current = undefined;
    return stopping ?? Promise.resolve();
  }

  private async apply(): Promise<void> {
    const settings = this.settingsNow().telemetry;
    let key: string;
    try {
      key = JSON.stringify(resolveTelemetryConfig(settings, this.env) ?? null);
    } catch (err) {
      key = OFF;
      if (err instanceof TelemetryConfigError) this.log.warn(`telemetry is off: ${err.message}`);
      else throw err;
    }
    if (key === this.key) return;
    await this.dispose();
    this.key = key;
    if (key === OFF) return;
    try {
      this.current = await startTelemetry(settings, this.env, (m) => this.log.warn(m));
      if (this.current) this.log.info(`telemetry on: ${describe(this.current)}`);
    } catch (err) {
      this.log.warn(`telemetry could not start: ${errorMessage(err)}`);
    }
  }
}

function describe(t: Telemetry): string {
  const c = t.config;
  const parts = [c.traces ? `traces to ${c.traces.url} (${c.traces.protocol})` : 'no traces'];
  if (c.metrics) parts.push(`metrics to ${c.metrics.url}`);
  if (c.prometheus) parts.push(`Prometheus endpoint http://${c.prometheus.host}:${c.prometheus.port}/metrics`);
  return parts.join(', ');
}
