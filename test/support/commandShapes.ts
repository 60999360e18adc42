// Generates commands with random whitespace and control characters, for the invariant "every approval
// surface shows the exact command": spaces in runs, tabs, newlines, carriage returns, every control
// control, invisible and bidi characters, look-alike spaces, backslashes and escape look-alikes.
import { seededRandom } from './seededRandom';

const WORDS = ['echo', 'rm', '-rf', 'git', 'status', '~/x', "'a b'", '"$HOME"', '|', '&&', ';', 'curl', 'http://127.0.0.1/s.sh', 'sh'];
const TRICKY = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\u001b[2K',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2066',
  '\u3000',
  '\ufeff',
  '\u{e0041}',
  '\\',
  '\\n',
  '\\x41',
  '\\u{41}',
  '␠',
  'é',
  '日本',
];

export function randomCommands(count: number, seed = 26): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let command = '';
    const parts = 1 + Math.floor(next() * 8);
    for (let p = 0; p < parts; p++) command += next() < 0.5 ? pick(WORDS) + pick([' ', ' ', ' ', pick(TRICKY)]) : pick(TRICKY);
    // Any code unit at all, now and then: the renderer must not depend on the lists above.
    if (next() < 0.2) command += String.fromCharCode(Math.floor(next() * 0x10000));
    out.push(command);
  }
  return out;
}
