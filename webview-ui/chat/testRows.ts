// A test run in the chat: one row per run, "Running tests: <command>" until it ends, then its result.
// Its "Show Output" brings up the run's task terminal (the host's TestTaskTerminals), live or ended.
import { button, el } from '../shared/components';

type Started = { command: string; note?: string };
type Finished = { command: string; exitCode: number | null; summary: string };

export class TestRows {
  /** The rows of runs still going, by command (runs of one command come one after another). */
  private readonly running = new Map<string, { row: HTMLElement; text: HTMLElement }>();

  constructor(private readonly showOutput?: (command: string) => void) {}

  reset(): void {
    this.running.clear();
  }

  /** A new row; undefined when it is a running row's news (a call waits for it: its note joins the row). */
  started(e: Started): HTMLElement | undefined {
    const words = `Running tests: ${e.command}${e.note ? ` · ${e.note}` : ''}`;
    const open = this.running.get(e.command);
    if (open && e.note) {
      open.text.textContent = words;
      return undefined;
    }
    const { row, text } = this.row(e.command, words);
    this.running.set(e.command, { row, text });
    return row;
  }

  /** The run's row with its result; a new row only when its start was not shown (undefined: updated in place). */
  finished(e: Finished): HTMLElement | undefined {
    const words = `Tests ${e.exitCode === 0 ? 'passed' : `failed (exit ${e.exitCode ?? 'killed'})`}${e.summary ? `: ${e.summary}` : ''} · ${e.command}`;
    const open = this.running.get(e.command);
    this.running.delete(e.command);
    const { row, text } = open ?? this.row(e.command, words);
    text.textContent = words;
    row.classList.add(e.exitCode === 0 ? 'pp-ok' : 'pp-error');
    return open ? undefined : row;
  }

  /** The run ended with tests still going (stopped, failed): their rows say they ended with it, not "Running" for ever. */
  runEnded(): void {
    for (const [command, { row, text }] of this.running) {
      text.textContent = `Tests stopped with the run · ${command}`;
      row.classList.add('pp-error');
    }
    this.running.clear();
  }

  private row(command: string, words: string): { row: HTMLElement; text: HTMLElement } {
    const row = el('div', 'pp-note pp-test-row');
    const text = el('span', 'pp-test-text', words);
    row.append(text);
    if (this.showOutput) {
      const show = this.showOutput;
      row.append(button({ label: 'Show Output', variant: 'secondary', title: `Show the terminal of ${command}`, onClick: () => show(command) }));
    }
    return { row, text };
  }
}
