import { listWorkspaceFiles } from '../git/listFiles';
import { looksBinary } from '../base/binary';
import { RegexWorker } from './regexWorker';
import { ToolError } from './types';
import { cutLine, type GrepOutcome, type GrepQuery } from './grepTypes';
import { errorMessage } from '../base';

const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Search without ripgrep: the same file set as glob (git ls-files or an ignore-aware walk). */
export async function grepWithJs(query: GrepQuery): Promise<GrepOutcome> {
  try {
    new RegExp(query.pattern); // compiling is cheap and cannot hang; matching runs in the worker
  } catch (err) {
    throw new ToolError(`invalid regular expression: ${errorMessage(err)}`);
  }
  const include = query.include;
  const prefix = query.path.replace(/\/+$/, '');
  const listing = await listWorkspaceFiles(query.root, { rules: query.rules, signal: query.signal });
  const files = listing.files.filter((f) => (!prefix || f === prefix || f.startsWith(prefix + '/')) && (!include || include.test(f)));

  const matches: GrepOutcome['matches'] = [];
  const re = new RegexWorker(query.pattern, query.maxMatches + 1, query.signal);
  try {
    for (const file of files) {
      query.signal.throwIfAborted();
      // Through the port: a link that leads out of the workspace is refused there and skipped here.
      const info = await query.fs.stat(file).catch(() => undefined);
      if (!info?.exists || info.type !== 'file' || info.size > MAX_FILE_BYTES) continue;
      const buffer = await query.fs.readFile(file).then(
        (b) => Buffer.from(b),
        () => undefined,
      );
      if (!buffer || looksBinary(buffer)) continue;
      const text = buffer.toString('utf8');
      const lines = text.split(/\r?\n/);
      for (const i of await re.match(text)) {
        if (matches.length >= query.maxMatches) return { matches, truncated: true, engine: 'js' };
        matches.push({ path: file, line: i + 1, text: cutLine(lines[i]!) });
      }
    }
  } finally {
    await re.close();
  }
  return { matches, truncated: false, engine: 'js' };
}
