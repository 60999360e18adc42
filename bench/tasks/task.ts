/**
 * A real task, SWE-bench's shape: a public repository, the commit that fixed a bug and its parent,
 * the goal as a user would write the issue, the test files the fix added or changed (held out from
 * the agent, added back to judge), and how to install and judge. One JSON file a task in defs/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface BenchTask {
  /** The file's name without .json; also the cache's name for nothing else. */
  name: string;
  /** owner/name of the public repository; the cache holds it as `<owner>+<name>.git`. */
  repo: string;
  /** The fix commit and its parent (full hashes): the agent starts at the parent. */
  fix: string;
  parent: string;
  /** The issue, as a user would write it: the symptom, never the fix. */
  goal: string;
  /** Test files the fix added or changed: the agent sees their parent versions, the judge the fix's. */
  heldOutTests: string[];
  /** Non-test files the fix changed (what a solution is likely to touch; for the task list only). */
  fixFiles: string[];
  /** Run once in the workspace before the agent starts (dependencies from the npm registry). */
  install: string;
  /** devDependencies left out of the install (they need a git URL or a browser, and no test uses them). */
  skipDevDeps?: string[];
  /** Runs the held-out tests; exit 0 = solved. */
  judge: string;
  /** What --check must see: the judge fails at the parent and passes with the fix. */
  expect: { before: 'fail'; after: 'pass' };
  /** A test command for the agent (--test-cmd); absent: the CLI detects one (npm test). */
  testCmd?: string;
  /** Why the repository's own suite is slow or flaky, when it is (the agent meets that suite). */
  suite?: string;
  /** Minutes for the install and the judge each (default 10). */
  timeoutMinutes?: number;
}

const DEFS = path.join(__dirname, 'defs');
const HEX40 = /^[0-9a-f]{40}$/;

export function loadTasks(only?: string[]): BenchTask[] {
  const files = readdirSync(DEFS)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const tasks = files.map((f) => validate({ ...JSON.parse(readFileSync(path.join(DEFS, f), 'utf8')), name: f.slice(0, -5) }));
  if (!only || only.length === 0) return tasks;
  const unknown = only.filter((n) => !tasks.some((t) => t.name === n));
  if (unknown.length) throw new Error(`no such task: ${unknown.join(', ')} (defs: ${tasks.map((t) => t.name).join(', ')})`);
  return tasks.filter((t) => only.includes(t.name));
}

/** A task file with a missing field would fail deep inside a run; say which file and field now. */
function validate(t: BenchTask): BenchTask {
  const bad = (why: string): never => {
    throw new Error(`bench/tasks/defs/${t.name}.json: ${why}`);
  };
  if (!/^[\w.-]+\/[\w.-]+$/.test(t.repo ?? '')) bad('repo must be owner/name');
  if (!HEX40.test(t.fix ?? '') || !HEX40.test(t.parent ?? '')) bad('fix and parent must be full commit hashes');
  for (const k of ['goal', 'install', 'judge'] as const) if (typeof t[k] !== 'string' || !t[k]) bad(`${k} is required`);
  if (!Array.isArray(t.heldOutTests) || t.heldOutTests.length === 0) bad('heldOutTests must list the test files');
  if (!Array.isArray(t.fixFiles) || t.fixFiles.length === 0) bad('fixFiles must list the non-test files the fix changed');
  if (t.expect?.before !== 'fail' || t.expect?.after !== 'pass') bad('expect must be { "before": "fail", "after": "pass" }');
  return t;
}
