import type { Finding } from './types';

/**
 * A tiny reader of sed scripts, enough to see the commands that leave sed: `e` (run a command),
 * `w`/`W` (write a file), `r`/`R` (read a file), and the `e`/`w` flags of `s///`. Anything it
 * does not understand is reported, never assumed harmless.
 */
const HARMLESS = new Set('pdqQnN=gGhHxDPlzF{}!'.split(''));

export function sedScriptFindings(script: string): Finding[] {
  const ask = (what: string): Finding[] => [{ verdict: 'ask', rule: 'ask:sed-script', reason: `The sed script ${what}.` }];
  let i = 0;
  const s = script;
  const skipDelimited = (delim: string): boolean => {
    // Move past one delimited part (pattern or replacement), honouring backslash escapes.
    while (i < s.length && s[i] !== delim) {
      if (s[i] === '\\') i++;
      if (s[i] === '\n' && delim !== '\n') return false;
      i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  while (i < s.length) {
    const ch = s[i]!;
    if (/[\s;]/.test(ch)) {
      i++;
      continue;
    }
    // Addresses: numbers, $, /re/, \cREc, ranges, steps, +N, ~N.
    if (/[0-9$,+~]/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '/') {
      i++;
      if (!skipDelimited('/')) return ask('has an unterminated address');
      continue;
    }
    if (ch === '\\') {
      const d = s[i + 1];
      i += 2;
      if (!d || !skipDelimited(d)) return ask('has an unterminated address');
      continue;
    }
    if (ch === 'I' || ch === 'M') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (ch === 's' || ch === 'y') {
      const d = s[i + 1];
      if (!d || /[\s\\]/.test(d)) return ask(`has an "${ch}" command that could not be read`);
      i += 2;
      if (!skipDelimited(d) || !skipDelimited(d)) return ask(`has an unterminated "${ch}" command`);
      if (ch === 's') {
        const flags = /^[0-9a-zA-Z]*/.exec(s.slice(i))![0];
        if (/[ew]/.test(flags)) return ask(`uses the "${flags}" flag of s///, which ${flags.includes('e') ? 'runs a command' : 'writes a file'}`);
        if (/[^gpiImM0-9]/.test(flags)) return ask(`uses unknown s/// flags "${flags}"`);
        i += flags.length;
      }
      continue;
    }
    if (HARMLESS.has(ch)) {
      i++;
      continue;
    }
    if ('ewWrR'.includes(ch))
      return ask(`uses the "${ch}" command, which ${ch === 'e' ? 'runs a command' : ch === 'r' || ch === 'R' ? 'reads a file' : 'writes a file'}`);
    return ask(`uses the "${ch}" command, which this checker does not know`);
  }
  return [];
}
