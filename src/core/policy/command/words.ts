import type { Node } from 'web-tree-sitter';
import type { Word } from './types';

/**
 * Quote removal for one shell word, done the way bash does it, so that `'r''m'`, `\rm` and
 * `$'\x72m'` all become "rm" before any rule looks at them. Anything known only at run time
 * (expansions, substitutions, brace expansion) makes the word dynamic: rules never guess it.
 */
export function evaluateWord(node: Node): Word {
  const acc = { value: '', dynamic: false, glob: false };
  append(node, acc);
  return { ...acc, raw: node.text };
}

export function literalWord(value: string): Word {
  return { value, dynamic: false, glob: false, raw: value };
}

interface Acc {
  value: string;
  dynamic: boolean;
  glob: boolean;
}

function append(node: Node, acc: Acc): void {
  switch (node.type) {
    case 'word':
    case 'command_name':
      if (node.type === 'command_name') {
        for (const c of node.namedChildren) if (c) append(c, acc);
        return;
      }
      appendUnquoted(node.text, acc);
      return;
    case 'number':
    case 'file_descriptor':
      acc.value += node.text;
      return;
    case 'raw_string':
      acc.value += node.text.slice(1, -1);
      return;
    case 'ansi_c_string':
      acc.value += decodeAnsiC(node.text.slice(2, -1));
      return;
    case 'string':
    case 'translated_string':
      for (const c of node.namedChildren) if (c) appendQuoted(c, acc);
      return;
    case 'concatenation':
      for (const c of node.children) if (c) append(c, acc);
      // `{a,b}` and `{1..3}` arrive as separate "{" ... "}" words inside a concatenation.
      if (/(^|[^\\])\{[^}]{0,200}(,|\.\.)[^}]{0,200}\}/.test(node.text) && !/^'.*'$/.test(node.text)) acc.dynamic = true;
      return;
    case 'extglob_pattern':
      acc.value += node.text;
      acc.glob = true;
      return;
    default:
      // simple_expansion, expansion, command/process substitution, arithmetic, "$" ...
      acc.value += node.text;
      acc.dynamic = true;
  }
}

function appendQuoted(node: Node, acc: Acc): void {
  if (node.type === 'string_content') {
    // Inside double quotes a backslash only escapes $ ` " \ and newline.
    acc.value += node.text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
    return;
  }
  acc.value += node.text;
  acc.dynamic = true;
}

function appendUnquoted(text: string, acc: Acc): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined) continue;
      if (next !== '\n') acc.value += next;
      i++;
      continue;
    }
    // `[` alone (the test command) is literal; it only globs with a closing `]`.
    if (ch === '*' || ch === '?' || (ch === '[' && text.indexOf(']', i + 1) > i)) acc.glob = true;
    acc.value += ch;
  }
}

/** Bash's $'...' escapes (the ones that matter for spelling a command name or flag). */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const n = body[++i];
    if (n === undefined) break;
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      e: '\x1b',
      E: '\x1b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '?': '?',
    };
    if (n in simple) {
      out += simple[n];
    } else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (n === 'u' || n === 'U') {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(body.slice(i + 1));
      if (m) {
        out += String.fromCodePoint(Math.min(parseInt(m[0], 16), 0x10ffff));
        i += m[0].length;
      } else out += '\\' + n;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (n === 'c') {
      const c = body[++i];
      if (c !== undefined) out += String.fromCharCode(c.toUpperCase().charCodeAt(0) & 0x1f);
    } else {
      out += '\\' + n;
    }
  }
  return out;
}
