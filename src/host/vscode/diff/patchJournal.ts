/** The patches written in this window, newest last, for Undo Last Patch and the chat's Undo Patch (pure; no `vscode`). */
import { Emitter, type Event } from '../../../core/base';

export interface JournalEntry {
  /** Undoes the patch (PatchManager's reversePatch). */
  reversePatch: string;
  /** The files as the patch left them (path -> text, null when deleted), to see whether the user changed them since. */
  after: Map<string, string | null>;
  label: string;
  at: number;
  /** undoKeyOf(reversePatch): the name the run's `patch/applied` event gives this write. */
  key: string;
}

export class PatchJournal {
  private readonly entries: JournalEntry[] = [];
  private readonly undone = new Emitter<JournalEntry>();
  /** A patch was undone (from the palette or the chat): the chat, the history and the agent hear of it. */
  readonly onDidUndo: Event<JournalEntry> = this.undone.event;

  constructor(private readonly max = 50) {}
  record(entry: JournalEntry): void {
    if (!entry.reversePatch.trim()) return;
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.shift();
  }
  peek(): JournalEntry | undefined {
    return this.entries[this.entries.length - 1];
  }
  /** The newest write filed under `key`. */
  find(key: string): JournalEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.key === key) return this.entries[i];
    return undefined;
  }
  /** The entry can no longer be undone (it was, or it no longer applies). */
  remove(entry: JournalEntry): void {
    const i = this.entries.lastIndexOf(entry);
    if (i >= 0) this.entries.splice(i, 1);
  }
  /** The entry was undone: out of the journal, and its listeners are told. */
  markUndone(entry: JournalEntry): void {
    this.remove(entry);
    this.undone.fire(entry);
  }
  get size(): number {
    return this.entries.length;
  }
}

/** Files the user changed since the patch wrote them (compared with what the patch left). */
export function changedSince(entry: JournalEntry, current: ReadonlyMap<string, string | null>): string[] {
  return [...entry.after].filter(([p, text]) => (current.get(p) ?? null) !== text).map(([p]) => p);
}
