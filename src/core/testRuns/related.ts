/**
 * The test files an edit can affect, when that is knowable from a cheap look at the workspace: an
 * edited test file itself, the test files that import an edited module (a relative `require` or
 * `import` resolved to the workspace path, a bare specifier or a Python import by the module's
 * name), that are named after it (`x.test.js`, `test_x.py`), or that mirror its path under a test
 * folder (`functions/diff.js` and `test/functions/diff.js`, `src/<area>/<name>.ts` and `test/<area>/<name>.test.ts`).
 * A Go file's package is its folder (narrowing runs it). Anything else (a manifest, a config, a
 * module no test file names, a workspace too large to scan) is unknowable, and related files that
 * are all the test files are the whole suite: in both cases the caller runs the whole suite, and
 * says which of these is why (the model reads it: "no related tests" for a file every test loads
 * sent it looking for tests that were there).
 * Reads only (test/unit/testRuns/related.test.ts).
 */
import path from 'node:path';

/** What the scan may look at: a folder's entries and a file's text. */
export interface TestFileSource {
  list(rel: string): Promise<{ name: string; type: 'file' | 'directory' | string }[]>;
  read(rel: string): Promise<string | undefined>;
}

/** Folders no project keeps its own tests in (dependencies, builds, caches). */
const SKIPPED_FOLDERS = /^(node_modules|dist|build|out|coverage|vendor|target|venv|env|__pycache__|site-packages)$|^\./;
/** The scan gives up past this many folders: in a workspace that large, what an edit affects is not cheap to know. */
const MAX_FOLDERS = 2000;
const MAX_TEST_FILES = 3000;

const TEST_FILE = /(\.|_)(test|spec)\.[cm]?[jt]sx?$|^test_[^/]*\.py$|_test\.py$|_test\.go$|^tests?\.([cm]?[jt]sx?|py)$/;
/** A file at any depth under a test folder (semver's `test/functions/diff.js`). */
const IN_TEST_FOLDER = /(^|\/)(tests?|__tests__|spec)\/(?:[^/]+\/)*[^/]*\.([cm]?[jt]sx?|py)$/;
/** The test folder inside a test file's path, and a source folder inside a module's path, that a mirrored layout leaves out. */
const TEST_ROOT = /(^|\/)(?:tests?|__tests__|spec)\//;
const SOURCE_ROOT = /(^|\/)(?:src|lib)\//;
const JS_SOURCE = /\.[cm]?[jt]sx?$/;

export function isTestFile(rel: string): boolean {
  const name = rel.split('/').pop() ?? rel;
  return TEST_FILE.test(name) || (IN_TEST_FOLDER.test(rel) && !/(^|\/)(fixtures?|helpers?|support|conftest\.py$)/.test(rel));
}

/** The related test files (sorted), or why the whole suite is what an edit can affect. */
export type RelatedTestFiles = { files: string[] } | { whole: string };

/** The related test files of the changed paths (workspace-relative), or why none can be told apart from the whole suite. */
export async function relatedTestFiles(changed: readonly string[], source: TestFileSource): Promise<RelatedTestFiles> {
  const related = new Set<string>();
  const modules: string[] = [];
  for (const rel of changed) {
    if (isTestFile(rel)) related.add(rel);
    else if (rel.endsWith('.go')) related.add(rel);
    else if (JS_SOURCE.test(rel) || rel.endsWith('.py')) modules.push(rel);
    else return { whole: `${rel} is not a module a test file loads (a manifest, a config or data may affect any test)` };
  }
  if (modules.length === 0) return { files: [...related].sort() };
  const tests = await listTestFiles(source);
  if (!tests) return { whole: `the workspace has over ${MAX_FOLDERS} folders or ${MAX_TEST_FILES} test files, too many to scan for related tests` };
  const texts = new Map<string, string>();
  for (const rel of modules) {
    const name = moduleName(rel);
    const importers: string[] = [];
    for (const test of tests) {
      if (sameName(test, name) || mirrors(test, rel)) {
        importers.push(test);
        continue;
      }
      if (!texts.has(test)) texts.set(test, (await source.read(test)) ?? '');
      const text = texts.get(test)!;
      if (rel.endsWith('.py') ? pythonImports(text, name) : importsModule(text, test, rel, name)) importers.push(test);
    }
    // A module no test names: what it affects is not known from here.
    if (importers.length === 0) return { whole: `no test file loads ${rel} or is named after it` };
    for (const t of importers) related.add(t);
  }
  // Every test file is related: that is the whole suite, run as such (it then counts as the whole run).
  if (tests.every((t) => related.has(t))) return { whole: `every test file is related to ${listedPaths(modules)} (loads it or is named after it)` };
  return { files: [...related].sort() };
}

/** Up to five paths, then how many more. */
export function listedPaths(files: readonly string[]): string {
  return files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
}

/** `src/parse.ts` → parse; `lib/index.js` and `pkg/__init__.py` → their folder's name. */
function moduleName(rel: string): string {
  const parts = rel.split('/');
  const base = parts.at(-1)!.replace(/\.[^.]+$/, '');
  return (base === 'index' || base === '__init__') && parts.length > 1 ? parts.at(-2)! : base;
}

/** The test file is named after the module or mirrors its path (the judgement by names alone, no reads): `test/bin/semver.js` tests `bin/semver.js`. */
export function testsByName(test: string, module: string): boolean {
  return sameName(test, moduleName(module)) || mirrors(test, module);
}

function sameName(test: string, name: string): boolean {
  const base = test
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '');
  return base === `test_${name}` || base === `${name}_test` || base === `${name}.test` || base === `${name}.spec` || base === `${name}_spec`;
}

/** The test file sits where the module does, under a test folder: `test/functions/diff.js` for `functions/diff.js`, `test/<area>/<name>.test.ts` for `src/<area>/<name>.ts`. */
function mirrors(test: string, module: string): boolean {
  const key = test
    .replace(TEST_ROOT, '$1')
    .replace(/\.[^./]+$/, '')
    .replace(/[._](test|spec)$/, '')
    .replace(/(^|\/)test_([^/]+)$/, '$1$2');
  if (key === test.replace(/\.[^./]+$/, '')) return false;
  const bare = module.replace(/\.[^./]+$/, '');
  return key === bare || key === bare.replace(SOURCE_ROOT, '$1');
}

/**
 * The JS test imports the module: a relative specifier resolved from the test's folder to the
 * module's workspace path (with or without extension, or its folder for an index file); a bare
 * specifier (a package name, a path alias) by the module's name, as before.
 */
function importsModule(text: string, test: string, module: string, name: string): boolean {
  const target = module.replace(/\.[cm]?[jt]sx?$/, '');
  const folder = /(^|\/)index$/.test(target) ? target.replace(/\/?index$/, '') : undefined;
  let bareNamed = false;
  for (const m of text.matchAll(/(?:require\s*\(|import\s*\(|\bfrom\s+|^\s*import\s+)['"]([^'"]+)['"]/gm)) {
    const spec = m[1]!;
    if (!/^\.\.?(\/|$)/.test(spec)) {
      bareNamed ||= new RegExp(`^([^'"]*/)?${escape(name)}(/index)?(\\.[cm]?[jt]sx?)?$`).test(spec);
      continue;
    }
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(test), spec)).replace(/\/$/, '');
    const bare = resolved === '.' ? '' : resolved.replace(/\.[cm]?[jt]sx?$/, '');
    if (bare === target || bare === folder) return true;
  }
  return bareNamed;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The Python test's text imports the module by name: an import or from line naming it. */
function pythonImports(text: string, name: string): boolean {
  const n = escape(name);
  return new RegExp(
    `^\\s*(from\\s+[\\w.]*\\b${n}\\b[\\w.]*\\s+import\\b|import\\s+[\\w., ]*\\b${n}\\b|from\\s+[\\w.]+\\s+import\\s+[^\\n]*\\b${n}\\b)`,
    'm',
  ).test(text);
}

/** Every test file of the workspace, or undefined past the scan's limits. */
async function listTestFiles(source: TestFileSource): Promise<string[] | undefined> {
  const found: string[] = [];
  const queue = [''];
  let folders = 0;
  while (queue.length) {
    const dir = queue.shift()!;
    if (++folders > MAX_FOLDERS) return undefined;
    for (const entry of await source.list(dir)) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.type === 'directory') {
        if (!SKIPPED_FOLDERS.test(entry.name)) queue.push(rel);
      } else if (isTestFile(rel)) {
        found.push(rel);
        if (found.length > MAX_TEST_FILES) return undefined;
      }
    }
  }
  return found;
}
