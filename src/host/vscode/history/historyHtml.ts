/**
 * The history panel's HTML: the chat's CSP (nothing by default; scripts only by this load's nonce;
 * no eval; images only from the webview's own source and data:), one script and one stylesheet from
 * dist/webview. No `vscode` import, so test/unit/host checks it in plain Node.
 */
import { chatCsp } from '../chat/html';

export interface HistoryHtmlInput {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export function buildHistoryHtml(i: HistoryHtmlInput): string {
  if (!/^[A-Za-z0-9]{16,}$/.test(i.nonce)) throw new Error('a nonce is at least 16 letters and digits');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>PatchPilot History</title>
</head>
<body>
<main id="app" aria-label="PatchPilot history"><p class="pp-loading">Loading the history…</p></main>
<script nonce="${i.nonce}" src="${attr(i.scriptUri)}"></script>
</body>
</html>`;
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
