/**
 * Whether a model's finish text names a failing test. Models shorten names ("DST Fall Back
 * 2012-11-04 01:00:00 and 01:59:59" for "DST, a time that never existed Fall Back › 2012-11-04
 * 01:59:59"), so a mention is found loosely but safely: the whole name, one of its parts (a suite,
 * the test's own title, pytest's "test_x" of "tests/a.py::test_x"), or every distinctive word of the
 * test's own title (the last part) found as a word in the text. Words too common to tell tests
 * apart ("should", "returns", "the") do not count, and a title with too little left never matches
 * by its words alone.
 */

/** What the finish gate tells the model counts as naming a test (said when it refuses). */
export const NAMING_RULE =
  "A test counts as named when your finish contains its full name, one part of it (the file, a suite or the test's own title), " +
  'or every distinctive word of its own title (numbers and dates included).';

/** Parts of a test's name as runners join them: pytest's `::`, vitest's and node-tap's ` > `, jest's ` › `. */
const PART_SEPARATOR = /::| > | › /;

/** Shorter parts than this are too likely to appear in any text by chance ("add", "b"). */
const MIN_PART_LENGTH = 4;

/** The distinctive words of a title must add up to at least this many characters to match by words alone. */
const MIN_DISTINCTIVE_CHARS = 8;

/** Words that appear in test titles and finish texts alike, telling no test apart. */
const COMMON_WORDS = new Set(
  (
    'a an the and or but not no of to in on at by for with from into as is are be it its this that these those when then ' +
    'should must can does do did will works work working returns return returned throws throw handles handle correct correctly ' +
    'test tests case cases expect expected value values result results given if true false null undefined'
  ).split(' '),
);

/** `file`: the file the test ran in, when the runner said (jest's names do not hold it): naming it names the test. */
export function mentionsTest(text: string, test: string, file?: string): boolean {
  const haystack = text.toLowerCase();
  const name = test.trim().toLowerCase();
  if (!name) return false;
  if (containsWhole(haystack, name)) return true;
  if (file && mentionsFile(haystack, file)) return true;
  const parts = name.split(PART_SEPARATOR).map((p) => p.trim());
  // A part made only of common words ("works", "returns true") is in many a finish by chance.
  if (parts.some((p) => p.length >= MIN_PART_LENGTH && distinctiveWords(p).length > 0 && containsWhole(haystack, p))) return true;
  return mentionsEveryDistinctiveWord(haystack, parts[parts.length - 1]!);
}

/** The file by its path as the runner gave it (`./` left off) or by its base name (`timezone.test.js`). */
function mentionsFile(haystack: string, file: string): boolean {
  const path = file.trim().toLowerCase().replace(/^\.\//, '');
  const base = path.slice(path.lastIndexOf('/') + 1);
  return [path, base].some((p) => p.length >= MIN_PART_LENGTH && p.includes('.') && containsWhole(haystack, p));
}

/** `needle` in `haystack`, not inside a longer word ("01:59:59" is not in "01:59:590"). */
function containsWhole(haystack: string, needle: string): boolean {
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1] ?? ' ';
    const after = haystack[at + needle.length] ?? ' ';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Every distinctive word of the title appears in the text as a whole word (not inside another). */
function mentionsEveryDistinctiveWord(haystack: string, title: string): boolean {
  const words = distinctiveWords(title);
  if (words.join('').length < MIN_DISTINCTIVE_CHARS) return false;
  const textWords = new Set(wordsOf(haystack));
  return words.every((w) => textWords.has(w));
}

function distinctiveWords(title: string): string[] {
  return [...new Set(wordsOf(title))].filter((w) => !COMMON_WORDS.has(w) && (w.length >= 3 || /\d/.test(w)));
}

/** Words as a title writes them: letters and digits, keeping the inner `-`, `:`, `.`, `_` of dates, times, versions and identifiers. */
function wordsOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+(?:[-:._/][\p{L}\p{N}]+)*/gu) ?? []).map((w) => w.toLowerCase());
}
