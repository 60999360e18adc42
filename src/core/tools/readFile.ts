import { resolveWorkspacePath } from './paths';
import { ToolError, ok, type Tool, type ToolContext } from './types';
import type { WorkspaceFs } from '../ports';
import { looksBinary } from '../base/binary';

/** Files larger than this are not read at all: ranges of huge files are a job for grep. */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** At most this much text per call; the output says how to read on. */
export const READ_MAX_LINES = 2000;
export const READ_MAX_CHARS = 100_000;
/** Room left in the run's result cap for what the loop appends to a result (rules that came in). */
const RESULT_ROOM = 1_000;

interface Args {
  path: string;
  start_line?: number;
  end_line?: number;
}

export const readFileTool: Tool<Args> = {
  name: 'read_file',
  description:
    'Read a text file of the workspace. Lines are numbered ("  12\\tcode"); the numbers are not part of the file. ' +
    `Use start_line/end_line (1-based, inclusive) for a range. Returns whole lines from start_line, at most ${READ_MAX_LINES} per call and as many as fit one result; ` +
    'the first line says which lines came back, and a read that stopped early ends with the start_line to continue from.',
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
    const file = splitLines(text);
    const total = file.lines.length;
    const start = args.start_line ?? 1;
    const end = Math.min(args.end_line ?? total, total);
    if (args.end_line !== undefined && args.end_line < start) throw new ToolError(`end_line ${args.end_line} is before start_line ${start}`);
    if (total === 0) return ok(`${target.rel}: empty file`, { lines: 0 });
    if (start > total) throw new ToolError(`${args.path} has ${total} lines; start_line ${start} is past the end`);
    const shown = numberedLines(file.lines, start, end, readBudget(ctx));
    return ok(describeRead(target.rel, file, { start, end, last: shown.last, asked: args.end_line }, shown.rows), {
      lines: total,
      from: start,
      to: shown.last,
    });
  },
};

/** The file's lines (a final newline ends the last line; it does not start another) and how they end. */
function splitLines(text: string): { lines: string[]; crlf: boolean; finalNewline: boolean } {
  if (text === '') return { lines: [], crlf: false, finalNewline: false };
  const lines = text.split(/\r?\n/);
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, crlf: text.includes('\r\n'), finalNewline };
}

/** Characters one reply may hold: the run's cap on a tool result (less room for notes the loop adds), at most READ_MAX_CHARS. */
function readBudget(ctx: ToolContext): number {
  const cap = ctx.state.resultChars?.();
  return cap === undefined ? READ_MAX_CHARS : Math.max(1_000, Math.min(READ_MAX_CHARS, cap - RESULT_ROOM));
}

/**
 * Whole lines from `start` while they fit `budget` (and READ_MAX_LINES): never a line cut short,
 * except a first line that alone exceeds the budget, whose cut the row itself says.
 */
function numberedLines(lines: readonly string[], start: number, end: number, budget: number): { rows: string[]; last: number } {
  const width = String(end).length;
  const rows: string[] = [];
  let chars = 0;
  let last = start - 1;
  for (let n = start; n <= end && n - start < READ_MAX_LINES; n++) {
    const line = lines[n - 1]!;
    let row = `${String(n).padStart(width)}\t${line}`;
    if (chars + row.length + 1 > budget) {
      if (rows.length > 0) break;
      const room = Math.max(100, budget - 200);
      row = `${row.slice(0, room)}\n[line ${n} is ${line.length} characters; only its first ${room - width - 1} are shown: grep for the part you need]`;
    }
    rows.push(row);
    chars += row.length + 1;
    last = n;
  }
  return { rows, last };
}

/** The label names exactly the lines returned; a read that stopped early says where to continue. */
function describeRead(
  rel: string,
  file: { lines: readonly string[]; crlf: boolean; finalNewline: boolean },
  r: { start: number; end: number; last: number; asked?: number },
  rows: string[],
): string {
  const total = file.lines.length;
  const endings = [file.crlf ? 'CRLF line endings' : '', file.finalNewline ? '' : 'no newline at the end of the file'].filter(Boolean);
  const tail = endings.length ? `; ${endings.join(', ')}` : '';
  const header = r.start === 1 && r.last === total ? `${rel} (${total} lines${tail})` : `${rel} (lines ${r.start}-${r.last} of ${total}${tail})`;
  if (r.last >= r.end) return `${header}\n${rows.join('\n')}`;
  const rest = r.asked !== undefined ? `start_line=${r.last + 1} end_line=${r.end}` : `start_line=${r.last + 1}`;
  const more = `[read_file stopped after line ${r.last} to stay within the size of one result; lines ${r.last + 1}-${r.end} are not shown: call read_file with ${rest} to continue]`;
  return `${header}\n${rows.join('\n')}\n${more}`;
}

async function hostStat(fs: WorkspaceFs, rel: string, asGiven: string): Promise<{ isDirectory(): boolean; size: number }> {
  const st = await fs.stat(rel).catch((err: Error) => {
    throw new ToolError(`${asGiven}: ${err.message}`);
  });
  if (!st.exists) throw new ToolError(`${asGiven}: no such file`);
  return { isDirectory: () => st.type === 'directory', size: st.size };
}
