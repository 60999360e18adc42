/**
 * The lines of the current chat as the webview draws them, kept by the host so that a reloaded or
 * re-shown view gets them back (and, capped, in workspace state across window reloads). Streamed
 * text and reasoning deltas are merged into one entry each so the log stays small. No `vscode` import.
 */
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ChatEntry } from '../../../../protocol/chat';

const MAX_ENTRIES = 2_000;
const MAX_TOOL_OUTPUT = 8_000;

export class ChatLog {
  private list: ChatEntry[] = [];

  constructor(entries: readonly ChatEntry[] = []) {
    this.list = [...entries];
  }

  get entries(): ChatEntry[] {
    return this.list;
  }

  clear(): void {
    this.list = [];
  }

  /** The run the log shows last (its `run/started` event), if it was recorded. */
  lastRunId(): string | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (e.kind === 'event' && e.event.type === 'run/started') return e.event.runId ?? undefined;
    }
    return undefined;
  }

  /** The model the log's last run worked with. */
  lastRunModel(): string | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (e.kind === 'event' && e.event.type === 'run/started') return e.event.model;
    }
    return undefined;
  }

  /** The log's last run has no `run/finished` (it was working when the window went away): the steps it began, else undefined. */
  unfinishedRunSteps(): number | undefined {
    let steps = 0;
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (e.kind !== 'event') continue;
      if (e.event.type === 'run/finished') return undefined;
      if (e.event.type === 'step/started') steps++;
      if (e.event.type === 'run/started') return steps;
    }
    return undefined;
  }

  /** Adds a line; returns what the view should append (deltas are sent as they came). */
  add(entry: ChatEntry): ChatEntry {
    const stored = entry.kind === 'event' ? { kind: 'event' as const, event: slim(entry.event) } : entry;
    const last = this.list[this.list.length - 1];
    const merged = stored.kind === 'event' && last?.kind === 'event' ? mergedDeltas(last.event, stored.event) : undefined;
    if (merged) this.list[this.list.length - 1] = { kind: 'event', event: merged };
    else this.list.push(stored);
    if (this.list.length > MAX_ENTRIES) this.list.splice(0, this.list.length - MAX_ENTRIES);
    return stored;
  }
}

/** Consecutive text (or reasoning) deltas as one event. */
function mergedDeltas(last: AgentEvent, next: AgentEvent): AgentEvent | undefined {
  if (last.type === 'text/delta' && next.type === 'text/delta') return { type: 'text/delta', text: last.text + next.text };
  if (last.type === 'reasoning/delta' && next.type === 'reasoning/delta') return { type: 'reasoning/delta', text: last.text + next.text };
  return undefined;
}

/** Long tool output is cut for the view; the model and the history store have it whole. */
function slim(e: AgentEvent): AgentEvent {
  if (e.type === 'tool/finished' && e.output.length > MAX_TOOL_OUTPUT)
    return { ...e, output: `${e.output.slice(0, MAX_TOOL_OUTPUT)}\n... (${e.output.length - MAX_TOOL_OUTPUT} more characters)` };
  return e;
}
