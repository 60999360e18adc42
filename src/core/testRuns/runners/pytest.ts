import { addFailure, brief, countOf, sumOf, type TestFailure, type TestSummary, optional } from './types';

const TOTALS = /^(?:=+ )?((?:\d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)(?:, )?)+|no tests ran)(?: in [\d.]+s)?\b.*?=*$/m;

/**
 * pytest: the counts of the last line (skips too), and for each failing test its node id with the
 * `E` lines of its section (the assertion with its values, pytest's diff), not the short summary's
 * cut message. Sections without a short summary (`-r` off) still name the test and its file.
 */
export function pytest(text: string, lines: readonly string[]): TestSummary | undefined {
  const totals = TOTALS.exec(text);
  const summaryLine = /^(?:FAILED|ERROR) \S+::/m.test(text);
  if (
    !summaryLine &&
    !(totals && /in [\d.]+s/.test(totals[0]) && /^=+ .*(FAILURES|ERRORS|test session starts)/m.test(text)) &&
    !(totals && /^=+ /.test(totals[0]))
  )
    return undefined;
  const sections = sectionsOf(lines);
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/.exec(lines[i]!);
    if (!m) continue;
    const id = m[2]!;
    const section = sectionOf(sections, id);
    if (section) sections.splice(sections.indexOf(section), 1);
    addFailure(failures, { name: id, message: section?.message ?? brief([m[3] ?? '']), file: id.split('::')[0], line: section?.line ?? i });
  }
  if (failures.length === 0)
    for (const s of sections) addFailure(failures, { name: s.file ? `${s.file}::${s.name}` : s.name, message: s.message, file: s.file, line: s.line });
  const t = totals?.[1];
  return {
    framework: 'pytest',
    ...optional('passed', countOf(t, /(\d+) passed/) ?? (t ? 0 : undefined)),
    ...optional('failed', sumOf(countOf(t, /(\d+) failed/), countOf(t, /(\d+) errors?/)) ?? (t ? 0 : undefined)),
    ...optional('skipped', sumOf(countOf(t, /(\d+) skipped/), countOf(t, /(\d+) xfailed/))),
    failures,
  };
}

interface Section {
  name: string;
  message?: string;
  file?: string;
  line: number;
}

/**
 * The section of a short summary's node id: headers name the test without its file, so the same
 * name in two files (`a/test_x.py::test_same`, `b/test_y.py::test_same`) is told apart by the file
 * its traceback ends in, else by order (each section serves one id).
 */
function sectionOf(sections: readonly Section[], id: string): Section | undefined {
  const file = id.split('::')[0];
  const name = id.split('::').slice(1).join('.');
  const named = sections.filter((s) => s.name === name || s.name === id);
  return named.find((s) => s.file === file) ?? named[0];
}

/** `____ test_name ____` sections of FAILURES and ERRORS: their `E` lines and the `path:line: Error` that ends them. */
function sectionsOf(lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  let current: { name: string; line: number; errors: string[]; file?: string } | undefined;
  const close = () => {
    if (current) sections.push({ name: current.name, message: brief(current.errors, 6), file: current.file, line: current.line });
    current = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^_{3,} (?:ERROR at \w+ of )?(.+?) _{3,}$/.exec(line);
    if (header) {
      close();
      current = { name: header[1]!, line: i, errors: [] };
      continue;
    }
    if (/^={3,} /.test(line)) close();
    if (!current) continue;
    const e = /^E {1,}(.*)$/.exec(line);
    if (e) current.errors.push(e[1]!);
    const where = /^([\w./\\-]+\.py):\d+: \w+/.exec(line);
    if (where) current.file = where[1];
  }
  close();
  return sections;
}
