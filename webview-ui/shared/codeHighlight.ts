/**
 * Code-block highlighting: highlight.js (core plus the languages models write most) turns code into
 * a token tree, which markdown.ts builds as spans with textContent. Its HTML output is never used,
 * so highlighting cannot become a way to inject markup. Unknown or missing languages stay plain.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, markdown, php, python, ruby, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

/** Text, or a scoped run of tokens ("keyword", "string", "title.function", ...). */
export type HlNode = string | { scope: string; children: HlNode[] };

/** Longest code highlighted; past it, plain text (a huge block must not stall the view). */
const MAX_CHARS = 20_000;

/** The token tree of `code` in `lang` (a fence's info string), or undefined to show it plain. */
export function highlightTokens(code: string, lang: string | undefined): HlNode[] | undefined {
  const name = lang?.trim().toLowerCase().split(/\s+/)[0];
  if (!name || code.length > MAX_CHARS || !hljs.getLanguage(name)) return undefined;
  try {
    const result = hljs.highlight(code, { language: name, ignoreIllegals: true }) as unknown as { _emitter?: { rootNode?: { children?: unknown[] } } };
    const children = result._emitter?.rootNode?.children;
    return Array.isArray(children) ? children.map(toNode).filter((n): n is HlNode => n !== undefined) : undefined;
  } catch {
    return undefined;
  }
}

function toNode(raw: unknown): HlNode | undefined {
  if (typeof raw === 'string') return raw;
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as { scope?: unknown; children?: unknown[] };
  const children = (Array.isArray(r.children) ? r.children : []).map(toNode).filter((n): n is HlNode => n !== undefined);
  return typeof r.scope === 'string' ? { scope: r.scope, children } : { scope: '', children };
}
