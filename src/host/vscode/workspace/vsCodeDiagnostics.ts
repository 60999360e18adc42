import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiagnosticsSource, FileProblem } from '../../../core/ports';

/** How long an edit waits at most for the language servers to report on the edited files. */
export const DIAGNOSTICS_SETTLE_MS = 1500;

/**
 * The Problems view's errors and warnings of workspace files (vscode.languages.getDiagnostics). After
 * an edit it opens the edited files (a language server checks open documents only) and waits for
 * the first diagnostics change of one of them, or DIAGNOSTICS_SETTLE_MS, whichever comes first.
 */
export class VsCodeDiagnostics implements DiagnosticsSource {
  constructor(
    private readonly root: string,
    private readonly settleMs = DIAGNOSTICS_SETTLE_MS,
  ) {}

  snapshot(paths: readonly string[]): FileProblem[] {
    return paths.flatMap((rel) => this.problemsOf(rel));
  }

  async settled(paths: readonly string[], signal: AbortSignal): Promise<FileProblem[]> {
    const uris = paths.map((rel) => vscode.Uri.file(path.join(this.root, rel)));
    const wanted = new Set(uris.map((u) => u.toString()));
    const changed = this.firstChange(wanted, signal);
    const checked = await this.openChecked(uris);
    if (checked > 0) await changed.promise;
    changed.dispose();
    signal.throwIfAborted();
    return this.snapshot(paths);
  }

  /** Opens the files that still exist; counts those a language other than plain text may check. */
  private async openChecked(uris: vscode.Uri[]): Promise<number> {
    let checked = 0;
    for (const uri of uris) {
      const doc = await Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined);
      if (doc && doc.languageId !== 'plaintext') checked++;
    }
    return checked;
  }

  /** Resolves on the first diagnostics change of one of `wanted`, after settleMs, or on abort. */
  private firstChange(wanted: Set<string>, signal: AbortSignal): { promise: Promise<void>; dispose(): void } {
    let done: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => (done = resolve));
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => wanted.has(u.toString()))) done();
    });
    const timer = setTimeout(done, this.settleMs);
    signal.addEventListener('abort', done, { once: true });
    return {
      promise,
      dispose: () => {
        sub.dispose();
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
      },
    };
  }

  private problemsOf(rel: string): FileProblem[] {
    const uri = vscode.Uri.file(path.join(this.root, rel));
    return vscode.languages.getDiagnostics(uri).flatMap((d) => {
      const severity = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : d.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : undefined;
      if (!severity) return [];
      const problem: FileProblem = { path: rel, line: d.range.start.line + 1, column: d.range.start.character + 1, severity, message: d.message };
      return d.source ? [{ ...problem, source: d.source }] : [problem];
    });
  }
}
