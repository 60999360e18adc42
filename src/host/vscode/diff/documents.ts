import * as vscode from 'vscode';

/** Left side of a review: the text as it was when the review opened (unsaved edits included), read-only. */
export const CURRENT_SCHEME = 'patchpilot-current';
/** Right side: the proposed text, an editable in-memory file (what the user types is what gets applied). */
export const PROPOSED_SCHEME = 'patchpilot-proposed';

/** `<scheme>:/<reviewId>/<workspace path>`: the file name and extension stay, so the language is right. */
export function reviewUri(scheme: string, reviewId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${reviewId}/${path}` });
}

export function parseReviewUri(uri: vscode.Uri): { reviewId: string; path: string } | undefined {
  if (uri.scheme !== CURRENT_SCHEME && uri.scheme !== PROPOSED_SCHEME) return undefined;
  const m = /^\/([^/]+)\/(.+)$/.exec(uri.path);
  return m ? { reviewId: m[1]!, path: m[2]! } : undefined;
}

export class CurrentContentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }
  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** A small in-memory file system for the right-hand documents: editable, saving is harmless. */
export class ProposedFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  put(uri: vscode.Uri, text: string): void {
    const existed = this.files.has(uri.toString());
    this.files.set(uri.toString(), { data: Buffer.from(text, 'utf8'), mtime: Date.now() });
    this.emitter.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }
  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(uri.toString());
    return f ? Buffer.from(f.data).toString('utf8') : undefined;
  }
  remove(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.toString());
    if (f) return { type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.data.byteLength };
    if ([...this.files.keys()].some((k) => k.startsWith(uri.toString().replace(/\/?$/, '/'))))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.toString());
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.toString(), { data: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposed documents cannot be renamed');
  }
}
