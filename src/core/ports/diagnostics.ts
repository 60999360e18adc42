/** One problem a checker reports in a workspace file (VS Code: a diagnostic of the Problems view). */
export interface FileProblem {
  /** Workspace-relative path with forward slashes. */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning';
  message: string;
  /** The checker that reported it ("json", "ts"). */
  source?: string;
}

/**
 * The host's problems per file (VS Code: vscode.languages.getDiagnostics). The after-write hook takes
 * a snapshot before an edit and asks again after it; the core reports only what is new.
 */
export interface DiagnosticsSource {
  /** Problems reported now for these files (before an edit). */
  snapshot(paths: readonly string[]): FileProblem[];
  /** Problems for these files once the checker settled after an edit (the host bounds the wait). */
  settled(paths: readonly string[], signal: AbortSignal): Promise<FileProblem[]>;
}
