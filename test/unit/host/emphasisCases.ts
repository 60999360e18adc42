// CommonMark's emphasis examples (spec section 6.2) that the chat's markdown subset covers, with the
// spec's rendering; shared by test/unit/host/markdownEmphasis.test.ts and bench/markdown/run.ts.
import type { Inline } from '../../../webview-ui/shared/markdownParse';

/** Inline tokens as the spec's HTML (text unescaped: the cases hold no < or &). */
export function inlineHtml(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.t) {
        case 'text':
          return n.text;
        case 'code':
          return `<code>${n.text}</code>`;
        case 'em':
          return `<em>${inlineHtml(n.children)}</em>`;
        case 'strong':
          return `<strong>${inlineHtml(n.children)}</strong>`;
        case 'link':
          return `<a>${inlineHtml(n.children)}</a>`;
      }
    })
    .join('');
}

/** [input, CommonMark's rendering of it]. */
export const EMPHASIS_CASES: Array<[string, string]> = [
  ['*foo bar*', '<em>foo bar</em>'],
  ['a * foo bar*', 'a * foo bar*'],
  ['a*"foo"*', 'a*"foo"*'],
  ['foo*bar*', 'foo<em>bar</em>'],
  ['5*6*78', '5<em>6</em>78'],
  ['_foo bar_', '<em>foo bar</em>'],
  ['_ foo bar_', '_ foo bar_'],
  ['a_"foo"_', 'a_"foo"_'],
  ['foo_bar_', 'foo_bar_'],
  ['5_6_78', '5_6_78'],
  ['пристаням_стремятся_', 'пристаням_стремятся_'],
  ['aa_"bb"_cc', 'aa_"bb"_cc'],
  ['foo-_(bar)_', 'foo-<em>(bar)</em>'],
  ['_foo*', '_foo*'],
  ['*foo bar *', '*foo bar *'],
  ['*(*foo)', '*(*foo)'],
  ['*(*foo*)*', '<em>(<em>foo</em>)</em>'],
  ['*foo*bar', '<em>foo</em>bar'],
  ['_foo bar _', '_foo bar _'],
  ['_(_foo)', '_(_foo)'],
  ['_(_foo_)_', '<em>(<em>foo</em>)</em>'],
  ['_foo_bar', '_foo_bar'],
  ['_пристаням_стремятся', '_пристаням_стремятся'],
  ['_foo_bar_baz_', '<em>foo_bar_baz</em>'],
  ['_(bar)_.', '<em>(bar)</em>.'],
  ['**foo bar**', '<strong>foo bar</strong>'],
  ['** foo bar**', '** foo bar**'],
  ['a**"foo"**', 'a**"foo"**'],
  ['foo**bar**', 'foo<strong>bar</strong>'],
  ['__foo bar__', '<strong>foo bar</strong>'],
  ['__ foo bar__', '__ foo bar__'],
  ['foo__bar__', 'foo__bar__'],
  ['5__6__78', '5__6__78'],
  ['пристаням__стремятся__', 'пристаням__стремятся__'],
  ['__foo, __bar__, baz__', '<strong>foo, <strong>bar</strong>, baz</strong>'],
  ['foo-__(bar)__', 'foo-<strong>(bar)</strong>'],
  ['**foo bar **', '**foo bar **'],
  ['**(**foo)', '**(**foo)'],
  ['*(**foo**)*', '<em>(<strong>foo</strong>)</em>'],
  ['__foo__bar', '__foo__bar'],
  ['__пристаням__стремятся', '__пристаням__стремятся'],
  ['__foo__bar__baz__', '<strong>foo__bar__baz</strong>'],
  ['__(bar)__.', '<strong>(bar)</strong>.'],
  ['**foo "*bar*" foo**', '<strong>foo "<em>bar</em>" foo</strong>'],
  ['*foo**bar**baz*', '<em>foo<strong>bar</strong>baz</em>'],
  ['*foo **bar** baz*', '<em>foo <strong>bar</strong> baz</em>'],
  ['_foo __bar__ baz_', '<em>foo <strong>bar</strong> baz</em>'],
  ['__foo _bar_ baz__', '<strong>foo <em>bar</em> baz</strong>'],
  ['***foo***', '<em><strong>foo</strong></em>'],
  ['foo ***', 'foo ***'],
  ['foo ___', 'foo ___'],
  ['*foo**', '<em>foo</em>*'],
  ['*foo`*`', '*foo<code>*</code>'],
  ['_foo`_`', '_foo<code>_</code>'],
  // What the chat met: underscores inside names in prose stay as written (CommonMark, like GitHub,
  // still reads a stand-alone __init__ after a space or a dot as bold: models write it in backticks).
  ['call my_module_name and snake_case_value', 'call my_module_name and snake_case_value'],
  ['pkg__init__py and a__b__c', 'pkg__init__py and a__b__c'],
  ['`__init__` stays code', '<code>__init__</code> stays code'],
];
