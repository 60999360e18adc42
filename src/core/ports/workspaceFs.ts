/**
 * Workspace files as the host sees them. Paths are workspace-relative (forward slashes). In VS Code
 * reads serve unsaved editor buffers and writes go through a WorkspaceEdit and a save (undo stack,
 * dirty editors and file watchers stay right); in the CLI it is NodeWorkspaceFs
 * (src/core/workspace): confined to the root, atomic writes.
 */

export type WorkspaceEntryType = 'file' | 'directory' | 'other';

export type WorkspaceStat =
  | { exists: false; /** Where the file would be created (host-specific), to re-check before writing. */ realPath?: string }
  | {
      exists: true;
      type: WorkspaceEntryType;
      size: number;
      /** POSIX permission bits (0o7777); 0o644 where the host has none. */
      mode: number;
      mtimeMs: number;
      /** The file's real location (host-specific); a write re-checks it so a swapped-in link cannot redirect it. */
      realPath?: string;
      /** Unsaved changes in an editor (VS Code only): readFile returns the buffer, not the disk. */
      dirty?: boolean;
    };

export interface WorkspaceDirEntry {
  name: string;
  type: WorkspaceEntryType;
  symlink?: boolean;
}

/** One change of an all-or-nothing multi-file write (a patch). */
export type WorkspaceChange =
  | {
      kind: 'write';
      path: string;
      content: string;
      /** POSIX mode for the written file. */ mode?: number;
      /** From stat: refuse when it moved. */ expectRealPath?: string;
    }
  | { kind: 'delete'; path: string; expectRealPath?: string };

/** The path is refused (outside the workspace, through a link that leads out, not a regular file). */
export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspacePathError';
  }
}

export interface WorkspaceFs {
  /** The workspace root's real path (links resolved); throws WorkspacePathError when the root cannot be read. */
  realRoot(): Promise<string>;
  /** Throws WorkspacePathError when the path may not be touched. '' (or '.') is the root itself. */
  stat(path: string): Promise<WorkspaceStat>;
  /** The file's bytes (VS Code: the editor's text when it has unsaved changes). */
  readFile(path: string): Promise<Uint8Array>;
  /** Entries of a directory, unsorted ('' is the root). */
  list(path: string): Promise<WorkspaceDirEntry[]>;
  /** One file, created with its missing parent folders (write_file). */
  writeFile(path: string, content: string): Promise<void>;
  /** Several files, all or nothing: on failure every file is as before (a patch). */
  applyChanges(changes: readonly WorkspaceChange[]): Promise<void>;
}
