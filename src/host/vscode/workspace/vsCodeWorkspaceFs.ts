import * as vscode from 'vscode';
import { plainText } from '../../../core/base';
import { NodeWorkspaceFs } from '../../node/nodeWorkspaceFs';
import { WorkspacePathError, type WorkspaceChange, type WorkspaceDirEntry, type WorkspaceFs, type WorkspaceStat } from '../../../core/ports';
import type { OwnSaves } from './ownSaves';
import { savedToDisk } from './saveOutcome';

/**
 * WorkspaceFs in VS Code. Confinement is NodeWorkspaceFs's (the extension host runs on the
 * workspace's machine: same root, same links). Reads serve an open editor's text when it has
 * unsaved changes; writes go through one WorkspaceEdit (the editor's undo stack, dirty state and
 * file watchers stay right), then the touched documents are saved; each of those saves is marked in
 * `ownSaves` first, so run on save can tell them from the user's.
 */
export class VsCodeWorkspaceFs implements WorkspaceFs {
  private readonly node: NodeWorkspaceFs;

  constructor(
    readonly root: string,
    private readonly ownSaves?: OwnSaves,
  ) {
    this.node = new NodeWorkspaceFs(root);
  }

  uriOf(rel: string): vscode.Uri {
    return vscode.Uri.joinPath(vscode.Uri.file(this.root), ...rel.split('/').filter(Boolean));
  }

  realRoot(): Promise<string> {
    return this.node.realRoot();
  }

  private openDocument(rel: string): vscode.TextDocument | undefined {
    const uri = this.uriOf(rel).toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  }

  async stat(rel: string): Promise<WorkspaceStat> {
    const st = await this.node.stat(rel);
    const doc = this.openDocument(rel);
    if (st.exists && st.type === 'file' && doc?.isDirty) return { ...st, size: Buffer.byteLength(doc.getText()), dirty: true };
    return st;
  }

  async readFile(rel: string): Promise<Uint8Array> {
    const doc = this.openDocument(rel);
    if (doc?.isDirty) {
      await this.node.stat(rel); // confinement all the same
      return Buffer.from(doc.getText(), 'utf8');
    }
    return this.node.readFile(rel);
  }

  list(rel: string): Promise<WorkspaceDirEntry[]> {
    return this.node.list(rel);
  }

  writeFile(rel: string, content: string): Promise<void> {
    return this.applyChanges([{ kind: 'write', path: rel, content }]);
  }

  async applyChanges(changes: readonly WorkspaceChange[]): Promise<void> {
    // An editor with no unsaved work that VS Code has not reloaded yet after the file changed on
    // disk (a tool, git, another window): its save would be refused as a conflict and leave our text
    // unsaved in it. With nothing unsaved to protect, the change goes to disk through the confined
    // commit instead, and VS Code reloads the clean editors from there.
    const touched = changes.filter((c) => c.kind !== 'delete').map((c) => this.openDocument(c.path));
    if (!touched.some((d) => d?.isDirty) && (await this.anyStale(changes))) return this.node.applyChanges(changes);
    const edit = new vscode.WorkspaceEdit();
    const toSave: { uri: vscode.Uri; path: string; content: string }[] = [];
    for (const c of changes) {
      const st = await this.node.stat(c.path);
      if (c.expectRealPath !== undefined && st.realPath !== c.expectRealPath)
        throw new WorkspacePathError(`${c.path} changed on disk while the patch was computed`);
      const uri = this.uriOf(c.path);
      if (c.kind === 'delete') {
        edit.deleteFile(uri, { ignoreIfNotExists: true });
        continue;
      }
      if (!st.exists) {
        edit.createFile(uri, { overwrite: false, contents: Buffer.from(c.content, 'utf8') });
        continue;
      }
      const doc = await vscode.workspace.openTextDocument(uri);
      const whole = new vscode.Range(new vscode.Position(0, 0), doc.lineAt(Math.max(0, doc.lineCount - 1)).range.end);
      const edits = [vscode.TextEdit.replace(whole, c.content)];
      const crlf = /\r\n/.test(c.content) && !/(^|[^\r])\n/.test(c.content);
      const lf = /\n/.test(c.content) && !/\r\n/.test(c.content);
      if (crlf && doc.eol !== vscode.EndOfLine.CRLF) edits.push(vscode.TextEdit.setEndOfLine(vscode.EndOfLine.CRLF));
      if (lf && doc.eol !== vscode.EndOfLine.LF) edits.push(vscode.TextEdit.setEndOfLine(vscode.EndOfLine.LF));
      edit.set(uri, edits);
      toSave.push({ uri, path: c.path, content: c.content });
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit (a file changed or is read-only); nothing was changed');
    const failed: string[] = [];
    for (const { uri, path, content } of toSave) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (!doc?.isDirty) continue;
      // VS Code's answer alone is not the verdict: under load it says false for saves that wrote (saveOutcome.ts).
      const save = () => savedToDisk(() => [content, doc.getText()], { save: () => doc.save(), readDisk: () => this.diskText(path) });
      const saved = this.ownSaves ? await this.ownSaves.during(doc.uri.toString(), save) : await save();
      if (!saved) failed.push(vscode.workspace.asRelativePath(uri));
    }
    if (failed.length) throw new Error(`the change is in the editor but could not be saved: ${failed.join(', ')}`);
  }

  private diskText(rel: string): Promise<string | undefined> {
    return this.node.readFile(rel).then(
      (b) => Buffer.from(b).toString('utf8'),
      () => undefined,
    );
  }

  /** Whether an open, clean editor of a changed file still differs from the disk after VS Code had a moment to reload it. */
  private async anyStale(changes: readonly WorkspaceChange[]): Promise<boolean> {
    const stale = async (): Promise<boolean> => {
      for (const c of changes) {
        const doc = this.openDocument(c.path);
        if (!doc || doc.isDirty || c.kind === 'delete') continue;
        const disk = await this.diskText(c.path);
        if (disk !== undefined && plainText(disk) === plainText(doc.getText())) continue; // VS Code drops the BOM and keeps one line ending
        return true;
      }
      return false;
    };
    for (let waited = 0; waited < STALE_WAIT_MS; waited += 100) {
      if (!(await stale())) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return stale();
  }
}

const STALE_WAIT_MS = 2_000;
