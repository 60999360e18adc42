// Generates shell commands from parts, for the invariant "a command classified read-only cannot write
// the workspace or run its code" (policy/command/readOnly.ts): reading programs with random extra
// arguments (some of them writing or executing options: -o, --output=, -i, -delete, -exec, globs that
// expand to option-named files), writing and code-running programs, redirections, assignments,
// substitutions, lists, pipelines, subshells and `bash -c`. Each command says whether a part known to
// write, run code or run a shell string went into it (`writes`): the classifier must never call such a
// command read-only.
import { seededRandom } from './seededRandom';

export interface GeneratedCommand {
  command: string;
  /** A part that writes a file, runs project code or runs a shell string went into it. */
  writes: boolean;
}

const READERS = [
  'ls',
  'ls -la',
  'cat a.txt',
  'head -n 3 a.txt',
  'tail -n 2 a.txt',
  'wc -l a.txt',
  'grep -rn foo .',
  'grep -c foo a.txt',
  'find . -name "*.txt"',
  'find .',
  'sort a.txt',
  'uniq a.txt',
  'diff a.txt b.txt',
  'sed -n 1,2p a.txt',
  "sed 's/a/b/' a.txt",
  'git log --oneline',
  'git log -p a.txt',
  'git diff',
  'git diff HEAD',
  'git show HEAD',
  'git status',
  'git branch',
  'git blame a.txt',
  'git grep foo',
  'git ls-files',
  'echo hi',
  'pwd',
  'cut -c1-3 a.txt',
  'tr a b',
  'nl a.txt',
  'stat a.txt',
  'du -s .',
  'cd sub',
  'realpath a.txt',
  'test -f a.txt',
  'cmp a.txt b.txt',
];

/** Extra arguments for a reader: harmless, or writing/executing for some programs (the runs decide). */
const EXTRA = [
  'a.txt',
  'b.txt',
  '*',
  '*.txt',
  '-n',
  '-o out.txt',
  '--output=out.txt',
  '-i',
  '-delete',
  '-exec touch {} +',
  '-fprint out.txt',
  '-T .',
  '--',
  '-u',
  "'s/a/b/w out.txt'",
  '-e 1e\\ touch\\ ran',
  '--pre ./run.sh',
  'HEAD',
  '-c',
  'commit -m x',
  'tag v1',
  'checkout -b x',
  'out.txt',
  '--no-pager',
  '-c core.pager=./run.sh',
];

/** Parts that write a file or run the project's code whatever surrounds them. */
const WRITERS = [
  'touch pwned',
  'node lib.js',
  'npm test',
  'sh run.sh',
  './run.sh',
  'tee out.txt',
  'cp a.txt c.txt',
  'mv b.txt d.txt',
  'rm a.txt',
  'git commit -qam x',
  'git checkout -qb x',
  'git tag v1',
  'mkdir d',
  "python3 -c \"open('py', 'w')\"",
  'make',
  'awk \'BEGIN { print 1 > "aw" }\'',
  'xargs touch',
  'env touch e',
  'node -e "require(\'./lib\')"',
  'echo $(touch sub1)',
  'cat `touch sub2`',
];

const WRITING_REDIRECTS = [' > out.txt', ' >> out.txt', ' &> log', ' 2> err', ' >| out2'];
const HARMLESS_REDIRECTS = ['', '', '', ' 2>/dev/null', ' 2>&1', ' < a.txt', ' > /dev/null'];
const JOINERS = [' | ', ' && ', '; ', ' || '];

export function generatedCommands(count: number, seed = 30): GeneratedCommand[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const one = (): GeneratedCommand => {
    if (next() < 0.15) return { command: pick(WRITERS), writes: true };
    let command = pick(READERS);
    for (let i = Math.floor(next() * 3); i > 0; i--) command += ' ' + pick(EXTRA);
    let writes = false;
    if (next() < 0.15) {
      command += pick(WRITING_REDIRECTS);
      writes = true;
    } else command += pick(HARMLESS_REDIRECTS);
    if (next() < 0.08) {
      command = `GIT_PAGER=./run.sh ${command}`;
      writes = true;
    }
    return { command, writes };
  };
  const out: GeneratedCommand[] = [];
  for (let i = 0; i < count; i++) {
    let g = one();
    for (let parts = Math.floor(next() * 3); parts > 0; parts--) {
      const more = one();
      g = { command: g.command + pick(JOINERS) + more.command, writes: g.writes || more.writes };
    }
    const wrap = next();
    if (wrap < 0.08) g = { command: `( ${g.command} )`, writes: g.writes };
    else if (wrap < 0.14) g = { command: `bash -c '${g.command.replace(/'/g, `'\\''`)}'`, writes: true };
    else if (wrap < 0.18) g = { command: `if test -f a.txt; then ${g.command}; fi`, writes: g.writes };
    out.push(g);
  }
  return out;
}
