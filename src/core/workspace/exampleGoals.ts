/**
 * Two or three goals that fit the open project, for the empty chat (each becomes a "Try: ..." button):
 * made from its test command (configured or detected), its main language (by the files at its root and
 * one folder below) and one of its source files. Reads names only, through the same probe as the
 * test detection. The sample project (dates.js) gets its own bug.
 */
import type { WorkspaceProbe } from '../testRuns';

const LANGUAGES: Record<string, string> = {
  '.js': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.jsx': 'JavaScript',
  '.ts': 'TypeScript',
  '.tsx': 'TypeScript',
  '.py': 'Python',
  '.rs': 'Rust',
  '.go': 'Go',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.cs': 'C#',
  '.rb': 'Ruby',
  '.php': 'PHP',
  '.c': 'C',
  '.cpp': 'C++',
  '.swift': 'Swift',
};
const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'target', 'vendor', '.venv', 'venv', '__pycache__']);
const SOURCE_DIRS = ['src', 'lib', 'app', 'pkg', 'cmd'];

export async function exampleGoals(probe: WorkspaceProbe, testCommand: string | undefined): Promise<string[]> {
  const root = await probe.list('.');
  const files: string[] = root.filter((n) => ext(n));
  for (const dir of root.filter((n) => SOURCE_DIRS.includes(n) && !SKIP.has(n))) {
    for (const n of await probe.list(dir)) if (ext(n)) files.push(`${dir}/${n}`);
  }
  const goals: string[] = [];
  if (root.includes('dates.js') && root.includes('test.js')) goals.push('make the failing date test pass');
  if (testCommand) goals.push(`run the tests (${testCommand}) and fix what fails`);
  const counts = new Map<string, number>();
  for (const f of files) counts.set(LANGUAGES[ext(f)!]!, (counts.get(LANGUAGES[ext(f)!]!) ?? 0) + 1);
  const language = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const source = files.find((f) => LANGUAGES[ext(f)!] === language && !/test|spec/i.test(f));
  if (source) goals.push(testCommand ? `add a test for ${source}` : `explain what ${source} does and suggest one improvement`);
  goals.push(language ? `explain how this ${language} project is organized` : 'explain how this project is organized');
  return [...new Set(goals)].slice(0, 3);
}

function ext(name: string): string | undefined {
  const m = /\.[A-Za-z0-9]+$/.exec(name);
  return m && LANGUAGES[m[0]] ? m[0] : undefined;
}
