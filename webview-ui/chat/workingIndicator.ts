/**
 * While a run works: what it is doing (waiting for the model, the model writing, a tool running,
 * waiting for the user) and for how long. The spinner is an indeterminate progressbar named by what
 * the run does; the line is a polite live region without a role of its own (the chat's one status
 * region stays the announcer of approvals and run ends), so a change of what it is doing is
 * announced; the seconds count is drawn but hidden from screen readers, so they are not told the
 * time every second.
 */
import type { ChatEntry } from '../../src/protocol/chat';
import { el } from '../shared/components';

export class WorkingIndicator {
  readonly root = el('div', 'pp-working');
  private readonly what = el('span', 'pp-working-what');
  private readonly elapsed = el('span', 'pp-working-elapsed');
  private readonly bar = el('span', 'codicon codicon-loading codicon-modifier-spin');
  private timer: ReturnType<typeof setInterval> | undefined;
  private since = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.root.setAttribute('aria-live', 'polite');
    this.bar.setAttribute('role', 'progressbar');
    this.elapsed.setAttribute('aria-hidden', 'true');
    this.root.append(this.bar, this.what, this.elapsed);
    this.root.hidden = true;
  }

  /** The run's running state from the host's status. */
  running(on: boolean): void {
    if (on && this.timer === undefined) {
      this.since = this.now();
      this.say('Working: waiting for the model');
      this.tick();
      this.timer = setInterval(() => this.tick(), 1000);
      this.root.hidden = false;
    } else if (!on && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.root.hidden = true;
      this.what.textContent = '';
    }
  }

  /** A chat line arrived: what the run does now. */
  entry(e: ChatEntry): void {
    if (this.timer === undefined || e.kind !== 'event') return;
    const ev = e.event;
    if (ev.type === 'step/started' || ev.type === 'tool/finished' || ev.type === 'approval/answered') this.say('Working: waiting for the model');
    else if (ev.type === 'reasoning/delta') this.say('Working: the model is thinking');
    else if (ev.type === 'text/delta') this.say('Working: the model is writing');
    else if (ev.type === 'tool/started') this.say(`Working: running ${ev.name}`);
    else if (ev.type === 'approval/needed') this.say('Waiting for your answer');
    else if (ev.type === 'test/started') this.say(ev.note ? `Working: ${ev.note}` : `Working: running tests (${ev.command})`);
    else if (ev.type === 'model/retrying') this.say(`Working: trying the model again (attempt ${ev.attempt})`);
  }

  private say(text: string): void {
    if (this.what.textContent === text) return;
    this.what.textContent = text;
    this.bar.setAttribute('aria-label', text);
  }

  private tick(): void {
    const s = Math.max(0, Math.floor((this.now() - this.since) / 1000));
    this.elapsed.textContent = ` · ${s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`}`;
  }
}
