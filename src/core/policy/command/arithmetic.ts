import type { Node } from 'web-tree-sitter';
import type { Finding } from './types';
import { evaluateWord } from './words';

/**
 * Bash evaluates some text a second time as arithmetic: `$(( ))`, `(( ))`, `$[ ]`, `let`, C-style
 * `for`, `${x:offset}`, `[[ a -eq b ]]`, and every indexed-array subscript (`a[i]`, `${a[i]}`,
 * `test -v 'a[i]'`, `read 'a[i]'`, `declare 'a[i]=1'` ...). In that second pass `a[$(cmd)]` runs
 * cmd, even when the text came from a single-quoted string or a variable's value, so the
 * sub-commands we extract never show it. The class rule: inside an arithmetic context or a
 * subscript, anything but literal numbers and operators asks; so does any word, in any quoting,
 * whose value holds a substitution inside `[...]`.
 */

const ask = (rule: string, reason: string): Finding => ({ verdict: 'ask', rule, reason });

/** Text bash would substitute in a second pass: `$(`, `${`, `$[`, a backtick, inside brackets. */
const SUBSTITUTION_IN_BRACKETS = /\[[^\]]*(\$\(|\$\{|\$\[|`)/;
/** What may appear in an arithmetic context or subscript without a second look: numbers and operators. */
const LITERAL_ARITHMETIC = /^[\s\d+\-*/%()<>=!&|^~?:,@]*$/;
/** Substitutions and quoted strings: what turns arithmetic into code execution. */
const SUBSTITUTIONS = ['command_substitution', 'process_substitution', 'raw_string', 'string', 'ansi_c_string', 'translated_string'];
const WORDISH = new Set(['word', 'raw_string', 'string', 'ansi_c_string', 'translated_string', 'concatenation']);

/** Findings for one syntax node; called for every node the extractor visits. */
export function arithmeticFindings(node: Node, clip: (s: string) => string): Finding[] {
  switch (node.type) {
    case 'subscript':
      return checkSubscript(node, clip);
    case 'arithmetic_expansion':
    case 'c_style_for_statement':
      return substitutionsInside(node, clip);
    case 'compound_statement':
      return node.text.startsWith('((') ? substitutionsInside(node, clip) : [];
    case 'test_command':
      return /\s-(eq|ne|lt|le|gt|ge)\s/.test(node.text) ? substitutionsInside(node, clip) : [];
    case 'expansion':
      return checkSubstringOffset(node, clip);
    case 'command':
      return checkLet(node, clip);
  }
  if (WORDISH.has(node.type) && !WORDISH.has(node.parent?.type ?? '') && node.parent?.type !== 'string') {
    const value = evaluateWord(node).value;
    if (SUBSTITUTION_IN_BRACKETS.test(value) || SUBSTITUTION_IN_BRACKETS.test(node.text)) {
      return [
        ask(
          'ask:subscript-substitution',
          `"${clip(node.text)}" holds a substitution inside [...]; bash runs it if the text is used as an array subscript or in arithmetic.`,
        ),
      ];
    }
  }
  return [];
}

/** `a[i]`, `${a[$(id)]}`: an indexed array's subscript is arithmetic; a name or substitution in it can run code. */
function checkSubscript(node: Node, clip: (s: string) => string): Finding[] {
  const open = node.children.findIndex((c) => c?.type === '[');
  const close = node.children.findIndex((c, i) => i > open && c?.type === ']');
  const index = node.children
    .slice(open + 1, close < 0 ? undefined : close)
    .map((c) => c?.text ?? '')
    .join('');
  if (open >= 0 && LITERAL_ARITHMETIC.test(index)) return [];
  return [
    ask(
      'ask:array-subscript',
      `The array subscript in "${clip(node.text)}" is evaluated as arithmetic, which runs any $(...) hidden in it or in a variable it names.`,
    ),
  ];
}

/** A substitution or quoted string inside arithmetic is expanded, then evaluated again: `$(( $(cat f) ))` runs what f holds. */
function substitutionsInside(node: Node, clip: (s: string) => string): Finding[] {
  if (node.descendantsOfType(SUBSTITUTIONS).length === 0) return [];
  return [
    ask(
      'ask:substitution-in-arithmetic',
      `"${clip(node.text)}" puts a substitution or quoted text in arithmetic, which bash evaluates again and can run code.`,
    ),
  ];
}

/** `${x:offset:length}`: offset and length are arithmetic. `:-`, `:=`, `:+`, `:?` are not. */
function checkSubstringOffset(node: Node, clip: (s: string) => string): Finding[] {
  const colon = node.children.findIndex((c) => c && !c.isNamed && c.type === ':');
  if (colon < 0) return [];
  const rest = node.children
    .slice(colon + 1)
    .filter((c) => c && c.type !== '}')
    .map((c) => c!.text)
    .join('');
  if (LITERAL_ARITHMETIC.test(rest)) return [];
  return [ask('ask:substitution-in-arithmetic', `The offset in "${clip(node.text)}" is evaluated as arithmetic, which can run code hidden in it.`)];
}

/** `let` evaluates each argument as arithmetic. */
function checkLet(node: Node, clip: (s: string) => string): Finding[] {
  const name = node.childForFieldName('name');
  if (!name || evaluateWord(name).value !== 'let') return [];
  return [ask('ask:let-arithmetic', `"${clip(node.text)}" evaluates its arguments as arithmetic, which can run code hidden in variables or subscripts.`)];
}
