import { MutableDisposable, type IDisposable } from '../base/disposable';
import type { Agent } from './agent';

/**
 * The one agent a chat runs on. It is made for the first run and kept across messages while the
 * configuration it was made from is the same, so what it learned (token calibration, the change
 * feed's view, warm MCP connections) carries over; it is replaced when that configuration changed or
 * a host event (settings, trust, keys, models) said so, and the agent it replaces is disposed: its
 * watchers, workers, MCP servers and history closed before the next one opens them again.
 *
 * Asked for only between runs (a chat reads its deps at each run's start), so a replacement never
 * pulls the agent out from under a working run.
 */
export class AgentSlot<Config> implements IDisposable {
  private readonly held = new MutableDisposable<HeldAgent>();
  private key: string | undefined;
  private stale = false;

  constructor(
    private readonly create: (config: Config) => Promise<Agent>,
    /** What decides that two configurations make the same agent (the settings, trust and keys, as a string). */
    private readonly keyOf: (config: Config) => string,
    /** Ending the replaced agent failed (a history not saved): said, not thrown at the next run. */
    private readonly onDisposeError: (err: unknown) => void = () => undefined,
  ) {}

  /** A host event says the next run's agent must be made again, whatever its configuration. */
  invalidate(): void {
    this.stale = true;
  }

  /** The agent for a run with this configuration: the same one while nothing changed. */
  get(config: Config): Promise<Agent> {
    const key = this.keyOf(config);
    const current = this.held.value;
    if (current && !this.stale && key === this.key) return current.agent;
    this.stale = false;
    this.key = key;
    // The old agent is ended first: the new one opens the same history file and watches the same tree.
    this.held.clear();
    const made = new HeldAgent(
      (async () => {
        await current?.ended;
        return this.create(config);
      })(),
      this.onDisposeError,
    );
    this.held.value = made;
    made.agent.catch(() => {
      // A failed wiring (no key, a bad setting) is made again at the next run, not kept.
      if (this.held.value === made) {
        this.held.value = undefined;
        this.key = undefined;
      }
    });
    return made.agent;
  }

  dispose(): void {
    this.held.dispose();
  }
}

class HeldAgent implements IDisposable {
  ended: Promise<void> | undefined;

  constructor(
    readonly agent: Promise<Agent>,
    private readonly onDisposeError: (err: unknown) => void,
  ) {}

  dispose(): void {
    this.ended ??= this.agent.then(
      (a) => a.dispose().catch(this.onDisposeError),
      () => undefined,
    );
  }
}
