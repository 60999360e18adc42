/** One exact string replacement, the shape Claude Code's Edit, Cline's and Codex's replace tools share. */
export interface StringEdit {
  oldString: string;
  newString: string;
  /** Replace every occurrence; without it, old_string must occur exactly once. */
  replaceAll?: boolean;
}

/** The file's text before and after the edits, both with LF endings (the engine restores the file's own). */
export type StringEditResult = { ok: true; before: string; after: string; replacements: number } | { ok: false; message: string };
