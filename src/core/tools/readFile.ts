import { resolveWorkspacePath } from './paths';
import { ToolError, ok, type Tool } from './types';
import type { WorkspaceFs } from '../ports';
import { looksBinary } from '../base/binary';

/** Files larger than this are not read at all: ranges of huge files are a job for grep. */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** At most this much text per call; the output says how to read on. */
export const READ_MAX_LINES = 2000;
export const READ_MAX_CHARS = 100_000;
const MAX_LINE_CHARS = 2000;

interface Args {
  path: string;
  start_line?: number;
  end_line?: number;
}

export const readFileTool: Tool<Args> = {
  name: 'read_file',
  description:
    'Read a text file of the workspace. Lines are numbered ("  12\\tcode"); the numbers are not part of the file. ' +
    `Use start_line/end_line (1-based, inclusive) for a range; at most ${READ_MAX_LINES} lines per call.`,
  schema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative path' },
      start_line: { type: 'integer', minimum: 1 },
      end_line: { type: 'integer', minimum: 1 },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  loop: { hookName: 'Read', readsFiles: (args) => (typeof args.path === 'string' ? [args.path] : []) },
  async run(args, ctx) {
    const target = await resolveWorkspacePath(ctx, args.path, 'read');
    // Through the host's file system (VS Code: unsaved editor buffers; CLI: NodeWorkspaceFs).
    const info = await hostStat(ctx.fs, target.rel, args.path);
    if (info.isDirectory()) throw new ToolError(`${args.path} is a directory; use list_dir`);
    if (info.size > READ_MAX_FILE_BYTES)
      throw new ToolError(`${args.path} is ${info.size} bytes, over the ${READ_MAX_FILE_BYTES}-byte limit; use grep to find the lines you need`);
    const buffer = Buffer.from(await ctx.fs.readFile(target.rel));
    if (looksBinary(buffer)) return ok(`${target.rel}: binary file (${info.size} bytes), not shown`, { binary: true });

    const text = buffer.toString('utf8');
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline ends a line, it does not start one
    const total = text === '' ? 0 : lines.length;
    const start = args.start_line ?? 1;
    const end = Math.min(args.end_line ?? total, total);
    if (args.end_line !== undefined && args.end_line < start) throw new ToolError(`end_line ${args.end_line} is before start_line ${start}`);
    if (total === 0) return ok(`${target.rel}: empty file`, { lines: 0 });
    if (start > total) throw new ToolError(`${args.path} has ${total} lines; start_line ${start} is past the end`);

    const width = String(end).length;
    const out: string[] = [];
    let chars = 0;
    let last = start - 1;
    for (let n = start; n <= end && n - start < READ_MAX_LINES; n++) {
      let line = lines[n - 1]!;
      if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)} [... line cut at ${MAX_LINE_CHARS} of ${line.length} characters]`;
      const row = `${String(n).padStart(width)}\t${line}`;
      if (chars + row.length > READ_MAX_CHARS && out.length > 0) break;
      out.push(row);
      chars += row.length + 1;
      last = n;
    }
    const header = last < total || start > 1 ? `${target.rel} (lines ${start}-${last} of ${total})` : `${target.rel} (${total} lines)`;
    const more = last < end ? `\n[... stopped at line ${last}; call read_file with start_line=${last + 1} to continue]` : '';
    return ok(`${header}\n${out.join('\n')}${more}`, { lines: total, from: start, to: last });
  },
};

async function hostStat(fs: WorkspaceFs, rel: string, asGiven: string): Promise<{ isDirectory(): boolean; size: number }> {
  const st = await fs.stat(rel).catch((err: Error) => {
    throw new ToolError(`${asGiven}: ${err.message}`);
  });
  if (!st.exists) throw new ToolError(`${asGiven}: no such file`);
  return { isDirectory: () => st.type === 'directory', size: st.size };
}
