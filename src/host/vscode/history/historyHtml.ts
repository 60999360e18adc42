/**
 * The history panel's HTML. The same CSP as the chat's (nothing by default; scripts only by this
 * load's nonce; no eval; images only from the webview's own source and data:), with the panel's
 * script and stylesheet inline, under the same nonce: in VS Code the HTML reaches the webview in one
 * message, while each file it loads is one more round trip through the webview's resource loader,
 * the largest part of the time before the first rows (bench/historyPanel). No `vscode` import, so
 * test/unit/host checks it in plain Node.
 */
import { chatCsp } from '../chat/view/html';

export interface HistoryHtmlInput {
  /** `webview.cspSource` */
  cspSource: string;
  nonce: string;
  /** dist/webview/history.js */
  script: string;
  /** dist/webview/history.css */
  style: string;
  /** Extra script files before the panel's (the benchmark's stand-in for VS Code's API). */
  scriptUris?: string[];
  /** Data for the first paint (a JSON data block: never executed, `<` escaped). */
  boot?: unknown;
}

export function historyCsp(cspSource: string, nonce: string): string {
  return chatCsp(cspSource, nonce).replace(`style-src ${cspSource}`, `style-src ${cspSource} 'nonce-${nonce}'`);
}

export function buildHistoryHtml(i: HistoryHtmlInput): string {
  if (!/^[A-Za-z0-9]{16,}$/.test(i.nonce)) throw new Error('a nonce is at least 16 letters and digits');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(historyCsp(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${i.nonce}">${inline(i.style)}</style>
<title>PatchPilot History</title>
</head>
<body>
<main id="app" aria-label="PatchPilot history"><p class="pp-loading">Loading the history…</p></main>
${i.boot === undefined ? '' : `<script type="application/json" id="pp-boot">${JSON.stringify(i.boot).replace(/</g, '\\u003c')}</script>\n`}${(i.scriptUris ?? []).map((u) => `<script nonce="${i.nonce}" src="${attr(u)}"></script>\n`).join('')}<script nonce="${i.nonce}">${inline(i.script)}</script>
</body>
</html>`;
}

/**
 * Our own bundle, but a `</script` or `</style` in it would end the element early, and a `<!--`
 * (highlight.js's HTML grammar has one) followed by `<script` would keep the real end tag from ending
 * it. So `</` becomes `<\/` (the same in a JS string or CSS) and `<!--` becomes `\x3C!--` (the same in
 * a JS string or regular expression, with or without the u flag).
 */
function inline(text: string): string {
  return text.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '\\x3C!--');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
