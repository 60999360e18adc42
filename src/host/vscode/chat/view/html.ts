/**
 * The chat webview's HTML: a strict CSP (nothing by default; scripts only by this load's nonce; no
 * eval; images only from the webview's own source and data:), one script and one stylesheet from
 * dist/webview. No `vscode` import, so test/unit/host checks the CSP in plain Node.
 */
export interface ChatHtmlInput {
  /** `webview.cspSource` */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** The codicon font's stylesheet (dist/webview/codicon.css, the font beside it). */
  iconStyleUri?: string;
  /** The first view of this window (a reload or a first open): it opens at the conversation's end, not at a saved reading position. */
  openAtEnd?: boolean;
}

export function chatCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `img-src ${cspSource} data:`, `style-src ${cspSource}`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
}

export function buildChatHtml(i: ChatHtmlInput): string {
  if (!/^[A-Za-z0-9]{16,}$/.test(i.nonce)) throw new Error('a nonce is at least 16 letters and digits');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${
  i.iconStyleUri
    ? `<link rel="stylesheet" href="${attr(i.iconStyleUri)}">
`
    : ''
}<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>PatchPilot</title>
</head>
<body${i.openAtEnd ? ' data-open-at-end="true"' : ''}>
<main id="app" aria-label="PatchPilot chat"></main>
<script nonce="${i.nonce}" src="${attr(i.scriptUri)}"></script>
</body>
</html>`;
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
