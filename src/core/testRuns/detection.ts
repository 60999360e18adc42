import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ciTestCommand } from './ciWorkflow';

/** A test command found in the workspace's own files, and the file that says so (shown to the user). */
export interface DetectedTestCommand {
  command: string;
  /** Workspace-relative file the command comes from ("package.json", "Cargo.toml"). */
  source: string;
  /** Why this command was chosen over the others the workspace suggests (shown with it). */
  reason?: string;
}

/** What detection may look at: the text of a top-level file, and the names in the root folder or one below it. */
export interface WorkspaceProbe {
  read(rel: string): Promise<string | undefined>;
  list(rel: string): Promise<string[]>;
}

/** npm writes this into a new package.json; it is no test command. */
const NPM_PLACEHOLDER = /no test specified/i;

type Detector = (probe: WorkspaceProbe, names: ReadonlySet<string>) => Promise<DetectedTestCommand | undefined>;

/**
 * The order is the order of confidence: a command the project wrote itself (package.json's script,
 * tox or nox, a Makefile or justfile target, the CI workflow's test step) before the one a build
 * tool implies, so a JavaScript project with a `make test` that wraps `npm test` runs the script the
 * developers type, and a Python project with tox runs what tox runs (doctests, lint), not bare pytest.
 */
const DETECTORS: readonly Detector[] = [packageJson, tox, nox, makefile, justfile, taskfile, ciWorkflow, pytest, cargo, goModule, gradle, maven, dotnet];

/**
 * The test command of a workspace, from the files at its root (package.json's `test` script with
 * the package manager its lockfile implies, pytest's configuration, Cargo.toml, go.mod, a Makefile,
 * justfile or Taskfile with a test target, Gradle, Maven, .NET), or undefined. Reads only: nothing
 * of the workspace runs here (test/unit/testRuns/detection.test.ts).
 */
export async function detectTestCommand(probe: WorkspaceProbe): Promise<DetectedTestCommand | undefined> {
  const names = new Set(await probe.list('.'));
  for (const detect of DETECTORS) {
    const found = await detect(probe, names);
    if (found)
      return {
        ...found,
        reason: found.reason ?? `the first test command found, in ${found.source} (no package script, tox, nox, make target or CI step came before it)`,
      };
  }
  return undefined;
}

/** The probe of a folder on disk; files over 256 KiB are not read (no manifest is that large). */
export function diskProbe(root: string): WorkspaceProbe {
  return {
    async read(rel) {
      try {
        const text = await readFile(path.join(root, rel), 'utf8');
        return text.length > 256 * 1024 ? undefined : text;
      } catch {
        return undefined;
      }
    },
    async list(rel) {
      try {
        return await readdir(path.join(root, rel));
      } catch {
        return [];
      }
    },
  };
}

async function packageJson(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  if (!names.has('package.json')) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse((await probe.read('package.json')) ?? '');
  } catch {
    return undefined;
  }
  const scripts = (manifest as { scripts?: unknown } | null)?.scripts;
  const test = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>).test : undefined;
  if (typeof test !== 'string' || !test.trim() || NPM_PLACEHOLDER.test(test)) return undefined;
  const manager = packageManagerOf(names, manifest as { packageManager?: unknown });
  // `yarn test`, `pnpm test`, `bun run test` (bun's own `bun test` is its test runner, not the script).
  const reason = `the package's own test script (${test}), run with ${manager}, the package manager its lockfile or packageManager field implies`;
  return { command: manager === 'bun' ? 'bun run test' : `${manager} test`, source: 'package.json', reason };
}

function packageManagerOf(names: ReadonlySet<string>, manifest: { packageManager?: unknown }): 'npm' | 'pnpm' | 'yarn' | 'bun' {
  if (names.has('pnpm-lock.yaml')) return 'pnpm';
  if (names.has('yarn.lock')) return 'yarn';
  if (names.has('bun.lockb') || names.has('bun.lock')) return 'bun';
  if (names.has('package-lock.json') || names.has('npm-shrinkwrap.json')) return 'npm';
  // No lockfile: corepack's field says which manager the project uses ("pnpm@9.1.0").
  const declared = typeof manifest.packageManager === 'string' ? manifest.packageManager.split('@')[0] : '';
  return declared === 'pnpm' || declared === 'yarn' || declared === 'bun' ? declared : 'npm';
}

async function pytest(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  const found = (source: string): DetectedTestCommand => ({ command: 'python -m pytest', source });
  if (names.has('pytest.ini')) return found('pytest.ini');
  for (const [file, section] of [
    ['pyproject.toml', /^\[tool\.pytest(\.ini_options)?\]/m],
    ['tox.ini', /^\[(tool:)?pytest\]/m],
    ['setup.cfg', /^\[tool:pytest\]/m],
  ] as const) {
    if (names.has(file) && section.test((await probe.read(file)) ?? '')) return found(file);
  }
  for (const folder of ['tests', 'test']) {
    if (names.has(folder) && (await probe.list(folder)).some((f) => /^test_.*\.py$|_test\.py$/.test(f))) return found(`${folder}/`);
  }
  return undefined;
}

async function tox(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  const reason = "the project's own test command: tox runs every environment it lists (tests, doctests, lint), which bare pytest would not";
  for (const [file, section] of [
    ['tox.ini', /^\[tox(:tox)?\]/m],
    ['setup.cfg', /^\[tox:tox\]/m],
    ['pyproject.toml', /^\[tool\.tox\]/m],
  ] as const) {
    if (names.has(file) && section.test((await probe.read(file)) ?? '')) return { command: 'tox', source: file, reason };
  }
  return undefined;
}

async function nox(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  return names.has('noxfile.py')
    ? { command: 'nox', source: 'noxfile.py', reason: "the project's own test command: nox runs the sessions noxfile.py defines" }
    : undefined;
}

async function ciWorkflow(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  if (!names.has('.github')) return undefined;
  const files = (await probe.list('.github/workflows')).filter((f) => /\.ya?ml$/.test(f)).sort();
  for (const file of files) {
    const command = ciTestCommand((await probe.read(`.github/workflows/${file}`)) ?? '');
    if (command)
      return {
        command,
        source: `.github/workflows/${file}`,
        reason: 'the test step of the CI workflow (no package script, tox, nox or make target says otherwise)',
      };
  }
  return undefined;
}

async function cargo(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  return names.has('Cargo.toml') ? { command: 'cargo test', source: 'Cargo.toml' } : undefined;
}

async function goModule(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  return names.has('go.mod') ? { command: 'go test ./...', source: 'go.mod' } : undefined;
}

async function makefile(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  for (const file of ['Makefile', 'makefile', 'GNUmakefile']) {
    if (names.has(file) && /^test\s*:(?!=)/m.test((await probe.read(file)) ?? ''))
      return { command: 'make test', source: file, reason: `the ${file}'s test target: what the developers type` };
  }
  return undefined;
}

async function justfile(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  for (const file of ['justfile', 'Justfile', '.justfile']) {
    // A recipe line: `test:` or `test *args:`, never an assignment (`test := ...`).
    if (names.has(file) && /^@?test(\s+[^:=\n]*)?:(?!=)/m.test((await probe.read(file)) ?? '')) return { command: 'just test', source: file };
  }
  return undefined;
}

async function taskfile(probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  for (const file of ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml']) {
    if (!names.has(file)) continue;
    if (taskNames((await probe.read(file)) ?? '').includes('test')) return { command: 'task test', source: file };
  }
  return undefined;
}

async function gradle(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  const build = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'].find((f) => names.has(f));
  if (!build) return undefined;
  return { command: names.has('gradlew') ? './gradlew test' : 'gradle test', source: build };
}

async function maven(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  if (!names.has('pom.xml')) return undefined;
  return { command: names.has('mvnw') ? './mvnw test' : 'mvn test', source: 'pom.xml' };
}

async function dotnet(_probe: WorkspaceProbe, names: ReadonlySet<string>): Promise<DetectedTestCommand | undefined> {
  const project = [...names].sort().find((f) => /\.(sln|slnx|csproj|fsproj|vbproj)$/i.test(f));
  return project ? { command: 'dotnet test', source: project } : undefined;
}

/** The keys one level under the top-level `tasks:` of a Taskfile (YAML read by indentation, enough for a key list). */
function taskNames(text: string): string[] {
  const names: string[] = [];
  let inTasks = false;
  let indent: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const lead = /^[ \t]*/.exec(line)![0];
    if (!lead) {
      inTasks = /^tasks\s*:\s*$/.test(line);
      indent = undefined;
      continue;
    }
    if (!inTasks) continue;
    indent ??= lead;
    const key = lead === indent ? /^['"]?([\w.-]+)['"]?\s*:/.exec(line.trimStart())?.[1] : undefined;
    if (key) names.push(key);
  }
  return names;
}
