import * as vscode from 'vscode';
import type { Handler } from './types';

/** Links in model text: http(s) only, no credentials in the URL; VS Code then asks the user about the domain. */
export const openLink: Handler<'link/open'> = async ({ url }, { log }) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    log.warn('link/open: not a URL');
    return { opened: false };
  }
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password) {
    log.warn(`link/open refused: ${parsed.protocol} link`);
    return { opened: false };
  }
  return { opened: await vscode.env.openExternal(vscode.Uri.parse(parsed.href, true)) };
};
