import { Emitter } from '../../../core/base';
import type { TestOutputEnd, TestOutputSink } from '../../../core/ports';

/** Output kept for a terminal VS Code has not opened yet; beyond it the oldest is dropped (said once in the terminal). */
const PENDING_LIMIT_CHARS = 1024 * 1024;

/** A terminal wants CRLF: a bare LF would only move down a row, not back to its start. */
export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The last line of a run: how it ended and how long it took. */
export function endLine(status: TestOutputEnd): string {
  const seconds = `${(status.durationMs / 1000).toFixed(1)} s`;
  if (status.error) return `could not run: ${status.error}`;
  if (status.timedOut) return `timed out after ${seconds}`;
  if (status.cancelled) return `cancelled after ${seconds}`;
  return status.exitCode === null ? `killed after ${seconds}` : `exit code ${status.exitCode} after ${seconds}`;
}

/**
 * One test run as a VS Code Pseudoterminal (this object is the task's CustomExecution terminal; it
 * has the Pseudoterminal's shape without importing vscode). The command runs from the moment the
 * run starts, not from when VS Code opens the terminal: what comes before open() is kept and
 * written then, and an end before open() closes the terminal right after. The terminal closes with
 * the command's exit code (1 when it was killed), so VS Code marks the task failed or succeeded.
 */
export class TestRunTerminal implements TestOutputSink {
  private readonly writes = new Emitter<string>();
  private readonly closes = new Emitter<number | void>();
  readonly onDidWrite = this.writes.event;
  readonly onDidClose = this.closes.event;
  private pending: string[] = [];
  private pendingChars = 0;
  private droppedChars = 0;
  private opened = false;
  private ended: number | undefined;

  constructor(
    command: string,
    /** Stops the command: the user closed the terminal or stopped the task. */
    private readonly stop: () => void,
  ) {
    this.emit(`\x1b[2m$ ${command}\x1b[0m\r\n`);
  }

  write(chunk: string): void {
    if (this.ended === undefined && chunk) this.emit(toTerminalText(chunk));
  }

  end(status: TestOutputEnd): void {
    if (this.ended !== undefined) return;
    const lead = status.error ? `\r\n${toTerminalText(status.error)}\r\n` : '\r\n';
    this.emit(`${lead}\x1b[2m${endLine(status)}\x1b[0m\r\n`);
    this.ended = status.exitCode ?? 1;
    if (this.opened) this.closes.fire(this.ended);
  }

  /** VS Code opened the terminal: what came so far is written, and the close if the run already ended. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    if (this.droppedChars) this.writes.fire(`\x1b[2m(${this.droppedChars} characters of earlier output not shown)\x1b[0m\r\n`);
    for (const text of this.pending) this.writes.fire(text);
    this.pending = [];
    this.pendingChars = 0;
    if (this.ended !== undefined) this.closes.fire(this.ended);
  }

  /** The user closed the terminal (or stopped the task) while the command ran: it is cancelled. */
  close(): void {
    if (this.ended === undefined) this.stop();
  }

  private emit(text: string): void {
    if (this.opened) {
      this.writes.fire(text);
      return;
    }
    this.pending.push(text);
    this.pendingChars += text.length;
    while (this.pendingChars > PENDING_LIMIT_CHARS && this.pending.length > 1) {
      const dropped = this.pending.shift()!;
      this.pendingChars -= dropped.length;
      this.droppedChars += dropped.length;
    }
  }
}
