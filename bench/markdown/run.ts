// The chat's markdown emphasis measured against CommonMark: the spec's emphasis cases
// (test/unit/host/emphasisCases.ts), and random strings of words, `*`, `_`, backticks and
// punctuation compared with markdown-it (a CommonMark implementation, when installed; it comes with
// @vscode/vsce). Prints a table; asserts nothing.
// Usage: node --import tsx bench/markdown/run.ts [--n 5000]
import { createRequire } from 'node:module';
import { parseInline } from '../../webview-ui/shared/markdownParse';
import { EMPHASIS_CASES, inlineHtml } from '../../test/unit/host/emphasisCases';

const n = Number(process.argv[process.argv.indexOf('--n') + 1]) || 5000;
type Md = { renderInline(s: string): string };
let md: Md | undefined;
try {
  const markdownIt = createRequire(import.meta.url)('markdown-it') as (o: object) => Md;
  md = markdownIt({ html: false, linkify: false, typographer: false });
} catch {
  md = undefined;
}
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

const specOk = EMPHASIS_CASES.filter(([src, want]) => inlineHtml(parseInline(src)) === want).length;
console.log(`spec emphasis cases: ${specOk}/${EMPHASIS_CASES.length} as CommonMark renders them`);
if (md) {
  const mdOk = EMPHASIS_CASES.filter(([src, want]) => unescape(md!.renderInline(src)) === want).length;
  console.log(`markdown-it on the same cases: ${mdOk}/${EMPHASIS_CASES.length}`);
  // A seeded generator, so the figure is the same on every machine.
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const parts = ['foo', 'bar', ' ', '*', '**', '_', '__', '.', '(', ')', '"', 'x'];
  const diffs: string[] = [];
  for (let k = 0; k < n; k++) {
    let s = '';
    const len = 1 + Math.floor(rand() * 8);
    for (let p = 0; p < len; p++) s += parts[Math.floor(rand() * parts.length)];
    s = s.trim();
    if (!s) continue;
    const ours = inlineHtml(parseInline(s));
    const theirs = unescape(md.renderInline(s));
    if (ours !== theirs) diffs.push(`${JSON.stringify(s)}: ours ${ours} | markdown-it ${theirs}`);
  }
  console.log(`random strings agreeing with markdown-it: ${n - diffs.length}/${n} (${((100 * (n - diffs.length)) / n).toFixed(1)}%)`);
  for (const d of diffs.slice(0, 10)) console.log(`  ${d}`);
} else console.log('markdown-it is not installed: no comparison');
