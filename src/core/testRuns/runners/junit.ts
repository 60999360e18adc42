import { addFailure, brief, countOf, type TestFailure, type TestSummary } from './types';

/**
 * JUnit XML, as runners write it when asked (pytest --junitxml, mocha's xunit reporter,
 * jest-junit, gradle, surefire): each `<testcase>` with a `<failure>` or `<error>` is a failing
 * test, its message attribute (or the text's first lines) what explains it.
 */
export function junit(text: string): TestSummary | undefined {
  if (!/<testsuites?\b[^>]*>/.test(text) || !/<testcase\b/.test(text)) return undefined;
  const failures: TestFailure[] = [];
  let passed = 0;
  let skipped = 0;
  for (const m of text.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = m[1]!;
    const body = m[2] ?? '';
    const failure = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (/<skipped\b/.test(body)) skipped++;
    else if (!failure) passed++;
    if (!failure) continue;
    const name = [attr(attrs, 'classname'), attr(attrs, 'name')].filter(Boolean).join(' ');
    const message = attr(failure[2]!, 'message') ?? firstLines(failure[3] ?? '');
    const file = attr(attrs, 'file');
    addFailure(failures, { name, message: brief(unescape(message ?? '').split('\n'), 5), ...(file ? { file } : {}) });
  }
  const declared = countOf(text, /<testsuites?\b[^>]*\bfailures="(\d+)"/);
  const errors = countOf(text, /<testsuites?\b[^>]*\berrors="(\d+)"/);
  const failed = Math.max(failures.length, (declared ?? 0) + (errors ?? 0));
  return { framework: 'junit', passed, failed, skipped, failures };
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? unescape(m[1]!) : undefined;
}

function firstLines(body: string): string {
  return body.split('\n').slice(0, 6).join('\n');
}

function unescape(s: string): string {
  return s
    .replace(/&#10;/g, '\n')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
