// The chat's markdown emphasis against CommonMark's emphasis rules (spec section 6.2): the cases
// in emphasisCases.ts are the spec's examples (those this subset covers: no escapes, no HTML, no relative links)
// with the spec's result. Names with underscores (snake_case, foo__bar__) must stay as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInline } from '../../../webview-ui/shared/markdownParse';
import { EMPHASIS_CASES, inlineHtml as html } from './emphasisCases';

test('emphasis follows CommonMark: the spec cases this subset covers', () => {
  const failed = EMPHASIS_CASES.filter(([src, want]) => html(parseInline(src)) !== want).map(
    ([src, want]) => `${src} -> ${html(parseInline(src))} (want ${want})`,
  );
  assert.deepEqual(failed, []);
});
