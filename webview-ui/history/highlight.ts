/**
 * Matched words as <mark> elements, built from text nodes only: the text is never parsed as HTML.
 * `marked` draws a string with known ranges (a search hit's snippet); `markTextNodes` marks the
 * words of a query inside an already drawn subtree (an opened run's timeline).
 */
import { matchRanges, type MatchRange, type QueryTerm } from '../../src/protocol/historyMatch';

export function marked(text: string, ranges: readonly MatchRange[]): DocumentFragment {
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const [a, b] of ranges) {
    if (a < at || b > text.length || a >= b) continue;
    if (a > at) frag.append(document.createTextNode(text.slice(at, a)));
    const m = document.createElement('mark');
    m.textContent = text.slice(a, b);
    frag.append(m);
    at = b;
  }
  if (at < text.length) frag.append(document.createTextNode(text.slice(at)));
  return frag;
}

export function markTextNodes(root: Node, terms: readonly QueryTerm[], max = 500): number {
  if (terms.length === 0) return 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  let count = 0;
  for (const node of nodes) {
    if (count >= max) break;
    const text = node.data;
    const ranges = matchRanges(text, terms, max - count);
    if (ranges.length === 0) continue;
    count += ranges.length;
    node.replaceWith(marked(text, ranges));
  }
  return count;
}
