/** Textual noise around or inside a correct diff: path prefixes, typographic characters, prose. */
import { hunksCopy, singleFile, unifiedFor } from './common';
import type { Kind } from './types';

export const pathPrefix: Kind = {
  name: 'path-prefix',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'paths without the `a/` `b/` prefixes, or with `./` (the clean row has `a/` `b/`)',
  make: ({ pair, rng }) => {
    const prefix = rng.pick(['', './']);
    return singleFile(pair, unifiedFor(pair, pair.hunks, { oldPrefix: prefix, newPrefix: prefix }), `prefix '${prefix}'`);
  },
};

type Typo = 'quotes' | 'dashes' | 'nbsp';

/** What a chat UI or word processor does to plain ASCII punctuation. */
function typographic(text: string, typo: Typo): string {
  switch (typo) {
    case 'quotes':
      return text
        .replace(/(^|[\s(\[{=,:])'/g, '$1\u2018')
        .replace(/'/g, '\u2019')
        .replace(/(^|[\s(\[{=,:])"/g, '$1\u201c')
        .replace(/"/g, '\u201d');
    case 'dashes':
      return text.replace(/ - /g, ' \u2013 ').replace(/--/g, '\u2014');
    case 'nbsp':
      // One inner space (between two non-space characters) becomes a no-break space.
      return text.replace(/(\S) (\S)/, '$1\u00a0$2');
  }
}

export const unicodePunctuation: Kind = {
  name: 'unicode-punctuation',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'smart quotes, en/em dashes or no-break spaces substituted in 1-3 context lines',
  make: ({ pair, rng }) => {
    const hunks = hunksCopy(pair);
    const typos = rng.shuffle<Typo>(['quotes', 'dashes', 'nbsp']);
    for (const typo of typos) {
      const slots: Array<{ lines: string[]; j: number; text: string }> = [];
      for (const h of hunks) {
        h.lines.forEach((l, j) => l[0] === ' ' && typographic(l.slice(1), typo) !== l.slice(1) && slots.push({ lines: h.lines, j, text: l.slice(1) }));
      }
      if (slots.length === 0) continue;
      const chosen = rng.shuffle(slots).slice(0, rng.int(1, 3));
      for (const { lines, j, text } of chosen) lines[j] = ' ' + typographic(text, typo);
      return singleFile(pair, unifiedFor(pair, hunks), `${typo} on ${chosen.length} lines`);
    }
    return null;
  },
};

const INTROS = [
  "Here's the fix:",
  'I updated the function to handle the edge case. Apply this patch:',
  'Sure! The change below should do it.',
  'The problem is in the parsing step.\n\nPatch:',
];
const OUTROS = [
  'Let me know if the tests still fail.',
  'This keeps the public API unchanged.',
  'Changes:\n- handle the edge case\n- keep the old behaviour for valid input',
  '',
];

export const proseAndFences: Kind = {
  name: 'prose-and-fences',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the clean diff inside a ```diff fence with chat prose before and after (sometimes a bullet list)',
  make: ({ pair, rng }) => {
    const fence = rng.pick(['```diff', '```patch', '```']);
    const outro = rng.pick(OUTROS);
    const patch = `${rng.pick(INTROS)}\n\n${fence}\n${unifiedFor(pair)}\`\`\`\n${outro ? `\n${outro}\n` : ''}`;
    return singleFile(pair, patch, `fence ${fence}`);
  },
};
