/** Markdown tokens (markdownParse.ts) -> DOM nodes built with textContent: model text is never HTML. */
import { highlightTokens, type HlNode } from './codeHighlight';
import { parseBlocks, type Block, type Inline } from './markdownParse';

export function renderMarkdown(src: string, onLink: (href: string) => void): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const b of parseBlocks(src)) frag.append(renderBlock(b, onLink));
  return frag;
}

function renderBlock(b: Block, onLink: (href: string) => void): Node {
  switch (b.t) {
    case 'p':
      return withInline(document.createElement('p'), b.inline, onLink);
    case 'h':
      return withInline(document.createElement(`h${Math.min(6, b.level + 2)}` as 'h3'), b.inline, onLink);
    case 'quote':
      return withInline(document.createElement('blockquote'), b.inline, onLink);
    case 'code': {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      if (b.lang) code.dataset.lang = b.lang;
      const tokens = highlightTokens(b.text, b.lang);
      if (tokens) for (const t of tokens) code.append(renderToken(t));
      else code.textContent = b.text;
      pre.append(code);
      return pre;
    }
    case 'list': {
      const list = document.createElement(b.ordered ? 'ol' : 'ul');
      for (const item of b.items) list.append(withInline(document.createElement('li'), item, onLink));
      return list;
    }
  }
}

function withInline<T extends HTMLElement>(parent: T, nodes: Inline[], onLink: (href: string) => void): T {
  for (const n of nodes) parent.append(renderInline(n, onLink));
  return parent;
}

function renderInline(n: Inline, onLink: (href: string) => void): Node {
  switch (n.t) {
    case 'text':
      return document.createTextNode(n.text);
    case 'code': {
      const c = document.createElement('code');
      c.textContent = n.text;
      return c;
    }
    case 'strong':
      return withInline(document.createElement('strong'), n.children, onLink);
    case 'em':
      return withInline(document.createElement('em'), n.children, onLink);
    case 'link': {
      const a = document.createElement('a');
      a.href = '#';
      a.title = n.href;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        onLink(n.href);
      });
      return withInline(a, n.children, onLink);
    }
  }
}

/** A highlight token as a span whose classes name its scope ("title.function" -> hl-title hl-function). */
function renderToken(t: HlNode): Node {
  if (typeof t === 'string') return document.createTextNode(t);
  const span = document.createElement('span');
  for (const part of t.scope.split('.')) if (/^[a-z_-]+$/.test(part)) span.classList.add(`hl-${part}`);
  for (const c of t.children) span.append(renderToken(c));
  return span;
}
