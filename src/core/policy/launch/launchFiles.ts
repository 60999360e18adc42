/**
 * The workspace files a launch names (a local MCP server's command line, a hook's command), by
 * content hash: what the user really approves when they approve `node tools/mcp-srv.mjs` is that
 * script's bytes, not the string. The agent can write workspace files, so a hash of the launch
 * strings alone let it change an approved server's code (attacks.mcpLaunch). These named files are
 * also what is protected at write time (launchProtectedGlobs); for a launch outside the sandbox the
 * approval binds the whole workspace tree as well (codeBinding.ts), since no parser sees every load.
 *
 * Named, here, means: the command itself when it is a path (or found on a PATH folder inside the
 * workspace); every argument and env value, whole, after `--opt=`, and word by word when it holds
 * spaces (`sh -c "node srv.mjs"`), that resolves (from the server's cwd) to a path inside the
 * workspace; the script of `python -m pkg.mod`; a folder in the script position (`node .`,
 * `node tools/srv`) or any other named folder with a package.json: its package.json, `main`,
 * `bin`, `exports["."]`, `index.*` and `__main__.py`. A name in the script position or with a code
 * or config extension that does not exist yet is recorded as absent, so creating it later counts as
 * a change. The local modules those scripts import (relative JS/TS imports and requires, Python
 * sibling modules) are followed, bounded. Left out: folders themselves (a filesystem server's root is data, not code) and what a
 * server writes as it runs (`.pid`, `.log`, `.lock`, `.sock`, `.db`, `.sqlite`).
 */
import { closeSync, lstatSync, openSync, readFileSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ProtectedGlob } from '../path/protectedPaths';

/** A program started on the user's behalf: what its files are looked up from. A remote MCP server (`transport` not stdio) names none. */
export interface Launch {
  transport?: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string;
}

/** Workspace-relative POSIX path -> `sha256:<hex>` or `absent`. */
export type LaunchFiles = Record<string, string>;

export const ABSENT = 'absent';
const MAX_FILES = 64;
const SCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.py'];
const OUTPUT_EXTENSIONS = /\.(pid|log|lock|sock|db|sqlite3?|duckdb)$/i;
const CODE_OR_CONFIG_EXTENSIONS = /\.(m?[jt]sx?|c[jt]s|mts|py|rb|pl|php|sh|bash|zsh|ps1|lua|wasm|node|so|dylib|jar|json5?|jsonc|ya?ml|toml|ini|cfg|conf|env)$/i;
const SOURCE = /\.(m?[jt]sx?|c[jt]s|mts|py)$/;
const MAX_SOURCE_BYTES = 1024 * 1024;
const FOLDER_ENTRIES = ['package.json', 'index.js', 'index.mjs', 'index.cjs', 'index.ts', '__main__.py', '__init__.py'];

/** Hashes and import lists kept by stat identity (size, times, inode): status lines and re-checks do not re-read unchanged files. */
export class FileHasher {
  private readonly cache = new Map<string, { stamp: string; value: unknown }>();

  hash(abs: string, st: Stats): string {
    return this.memo(`hash:${abs}`, st, () => `sha256:${sha256File(abs)}`);
  }

  imports(abs: string): { abs: string; mayBeAbsent: boolean }[] {
    const st = statOrUndefined(abs);
    return st
      ? resolveImports(
          abs,
          this.memo(`imports:${abs}`, st, () => importSpecs(abs)),
        )
      : [];
  }

  private memo<T>(key: string, st: Stats, compute: () => T): T {
    const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const hit = this.cache.get(key);
    if (hit?.stamp === stamp) return hit.value as T;
    const value = compute();
    this.cache.set(key, { stamp, value });
    return value;
  }
}

/** The named files of a local launch (none for a remote server). */
export function launchFiles(root: string, config: Launch | { transport: string }, hasher = new FileHasher()): LaunchFiles {
  if (!('command' in config) || (config.transport !== undefined && config.transport !== 'stdio')) return {};
  const cwd = path.resolve(root, config.cwd ?? '.');
  const files = new LaunchFileCollector(root, hasher);
  // The command: a path, or a name found on a PATH folder that lies inside the workspace.
  const command = config.command;
  if (/[\\/]/.test(command)) files.consider(command, cwd, true);
  else {
    const found = onPath(command, config.env.PATH ?? process.env.PATH ?? '', cwd);
    if (found) files.consider(found, cwd, true);
  }
  const python = /^python[0-9.]*$/.test(path.basename(command));
  let scriptSeen = false;
  for (let i = 0; i < config.args.length; i++) {
    const arg = config.args[i]!;
    if (python && arg === '-m' && i + 1 < config.args.length) {
      const mod = config.args[++i]!.replace(/\./g, '/');
      for (const candidate of [`${mod}.py`, `${mod}/__main__.py`, `${mod}/__init__.py`]) files.record(path.resolve(cwd, candidate), false);
      scriptSeen = true;
      continue;
    }
    const scriptPosition = !scriptSeen && !arg.startsWith('-');
    if (scriptPosition) scriptSeen = true;
    for (const token of tokens(arg)) files.consider(token, cwd, scriptPosition && token === arg);
  }
  for (const value of Object.values(config.env)) for (const token of tokens(value)) files.consider(token, cwd, false);
  files.followImports();
  return Object.fromEntries(Object.entries(files.out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Gathers one launch's workspace files (by their workspace names) with their hashes, each path looked at once. */
class LaunchFileCollector {
  readonly out: LaunchFiles = {};
  private readonly seen = new Set<string>();
  private readonly rootReal: string;

  constructor(
    private readonly root: string,
    private readonly hasher: FileHasher,
  ) {
    this.rootReal = safeRealpath(root);
  }

  /** A file inside the workspace, hashed (or marked absent where a missing one counts); its stats, for the caller to look further. */
  record(abs: string, mayBeAbsent: boolean): Stats | undefined {
    const { out } = this;
    const st = statOrUndefined(abs); // through links: the bytes that run
    if (st?.isDirectory()) return st;
    const rels = workspaceNames(this.root, this.rootReal, abs);
    if (rels.length === 0 || Object.keys(out).length >= MAX_FILES) return st;
    if (!st && !mayBeAbsent && !isLink(abs)) return st;
    const value = st?.isFile() ? hashOrAbsent(this.hasher, abs, st) : st ? `other:${st.mode.toString(8)}` : ABSENT;
    for (const rel of rels) out[rel] = value;
    return st;
  }

  /** A token of the command line, the args or the env that may name a file. */
  consider(token: string, from: string, scriptPosition: boolean): void {
    const t = token.trim();
    if (!t || t.startsWith('-') || t.includes('\0') || /^[a-z][a-z0-9+.-]*:\/\//i.test(t) || t.length > 4096) return;
    const abs = path.resolve(from, t.startsWith('file:') ? t.slice(5) : t);
    if (this.seen.has(abs)) return;
    this.seen.add(abs);
    // What the server writes as it runs (its pid, log, database) is output, not code: part of no approval.
    if (OUTPUT_EXTENSIONS.test(t)) return;
    // A name that is not there yet counts (as absent) where code or config would be: the script, or a code/config extension.
    // (`@scope/name@1.2` in that position is a package an npx-like runner fetches, not a path.)
    const pathLike = /[\\/]/.test(t) && !/\s/.test(t) && !/^@[\w.-]+\/[\w.-]+(@\S*)?$/.test(t);
    const mayBeAbsent = (scriptPosition && pathLike) || CODE_OR_CONFIG_EXTENSIONS.test(t);
    const st = this.record(abs, mayBeAbsent);
    if (st?.isDirectory()) this.folder(abs, scriptPosition);
    else if (!st && scriptPosition && !path.extname(t)) {
      // `node tools/srv` also runs tools/srv.js (and friends) when the bare name does not exist.
      for (const ext of SCRIPT_EXTENSIONS) this.record(`${abs}${ext}`, false);
    }
  }

  /** A folder named on the command line: its package's entry points and the files that say what runs. */
  private folder(dir: string, scriptPosition: boolean): void {
    if (this.seen.has(`dir:${dir}`)) return;
    this.seen.add(`dir:${dir}`);
    const pkgFile = path.join(dir, 'package.json');
    const isPackage = statOrUndefined(pkgFile)?.isFile() === true;
    // The workspace root is a filesystem server's data folder far more often than a program; it counts only where it runs (`node .`).
    if (!scriptPosition && (!isPackage || safeRealpath(dir) === this.rootReal)) return;
    for (const name of FOLDER_ENTRIES) this.record(path.join(dir, name), name === 'package.json');
    for (const entry of isPackage ? packageEntries(pkgFile) : []) this.record(path.resolve(dir, entry), true);
  }

  /** The local modules those scripts import run as much as they do: followed (bounded) through relative imports. */
  followImports(): void {
    const { out } = this;
    const queue = Object.keys(out).filter((rel) => out[rel] !== ABSENT && SOURCE.test(rel));
    const visited = new Set<string>();
    while (queue.length > 0 && visited.size < MAX_FILES) {
      const rel = queue.shift()!;
      if (visited.has(rel)) continue;
      visited.add(rel);
      for (const { abs, mayBeAbsent } of this.hasher.imports(path.join(this.root, rel))) {
        const before = new Set(Object.keys(out));
        this.record(abs, mayBeAbsent);
        for (const added of Object.keys(out)) if (!before.has(added) && SOURCE.test(added)) queue.push(added);
      }
    }
  }
}

/** Files a JS/TS or Python source names as its local modules (existing ones, resolved the way node and python would). */
/** The relative module names a JS/TS or Python source imports, as written (parsed once per version of the file). */
function importSpecs(file: string): string[] {
  let text: string;
  try {
    if ((statSync(file).size ?? 0) > MAX_SOURCE_BYTES) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  if (/\.py$/.test(file)) {
    return [...text.matchAll(/^\s*(?:from\s+(\.*[\w.]*)\s+import|import\s+([\w.]+))/gm)]
      .map((m) => `py:${(m[1] ?? m[2] ?? '').replace(/^\.+/, '').replace(/\./g, '/')}`)
      .filter((x) => x !== 'py:');
  }
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\1/g)].map((m) => m[2]!);
}

/**
 * Where those imports lead now (resolved the way node and python would; resolved on every check, as
 * a module created later changes what runs). An unresolved JS import with an extension counts as
 * absent, so creating it asks again.
 */
function resolveImports(file: string, specs: readonly string[]): { abs: string; mayBeAbsent: boolean }[] {
  const dir = path.dirname(file);
  const out: { abs: string; mayBeAbsent: boolean }[] = [];
  const isFile = (c: string) => statOrUndefined(c)?.isFile() === true;
  for (const spec of specs) {
    if (spec.startsWith('py:')) {
      const mod = spec.slice(3);
      out.push(
        ...[`${mod}.py`, `${mod}/__init__.py`]
          .map((c) => path.join(dir, c))
          .filter(isFile)
          .map((abs) => ({ abs, mayBeAbsent: false })),
      );
      continue;
    }
    const base = path.resolve(dir, spec);
    const candidates = [
      base,
      ...SCRIPT_EXTENSIONS.map((e) => `${base}${e}`),
      ...['index.js', 'index.mjs', 'index.cjs', 'index.ts'].map((i) => path.join(base, i)),
    ];
    // TypeScript sources import `./x.js` meaning `./x.ts`.
    if (/\.[cm]?js$/.test(base)) candidates.push(base.replace(/js$/, 'ts'));
    const found = candidates.find(isFile);
    if (found) out.push({ abs: found, mayBeAbsent: false });
    else if (path.extname(spec)) out.push({ abs: base, mayBeAbsent: true });
  }
  return out;
}

/** What differs between the approved files and today's: `tools/srv.mjs (changed)`, `cfg.json (added)`. */
export function describeFileChanges(approved: LaunchFiles | undefined, now: LaunchFiles): string[] {
  const before = approved ?? {};
  const out: string[] = [];
  for (const rel of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const was = before[rel];
    const is = now[rel];
    if (was === is) continue;
    if (approved === undefined) out.push(`${rel} (not part of the earlier approval)`);
    else if (was === undefined || was === ABSENT) out.push(`${rel} (${is === ABSENT ? 'newly named' : 'added'})`);
    else if (is === undefined || is === ABSENT) out.push(`${rel} (removed)`);
    else out.push(`${rel} (changed)`);
  }
  return out.sort();
}

/**
 * The protected set's share of launches (MCP servers, hooks): every file a launch names, as an exact
 * anchored glob (special characters escaped) with its reason, so a patch or write asks in every
 * mode and a command cannot change it (read-only in the sandbox, restored without one).
 */
export function launchProtectedGlobs(root: string, launches: readonly { launch: Launch; why: string }[]): ProtectedGlob[] {
  const out: ProtectedGlob[] = [];
  for (const { launch, why } of launches) {
    for (const rel of Object.keys(launchFiles(root, launch))) {
      out.push({ glob: `/${rel.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ')}`, why });
    }
  }
  return out;
}

/** Words of an argument that may be paths: itself, the value of `--opt=value`, and its words when it holds spaces. */
function tokens(arg: string): string[] {
  const out = [arg];
  const eq = /^-{1,2}[\w.-]+=(.+)$/.exec(arg);
  if (eq) out.push(eq[1]!);
  if (/\s/.test(arg)) {
    for (const word of arg.split(/[\s;&|()<>'"`]+/)) {
      if (!word) continue;
      out.push(word);
      const inner = /^-{1,2}[\w.-]+=(.+)$/.exec(word);
      if (inner) out.push(inner[1]!);
    }
  }
  if (arg.includes(path.delimiter) && !/\s/.test(arg) && !arg.includes('://')) out.push(...arg.split(path.delimiter).filter(Boolean));
  return [...new Set(out)];
}

/** Every workspace-relative name of `abs`: as written (when inside) and where its links lead (when inside). */
function workspaceNames(root: string, rootReal: string, abs: string): string[] {
  const names = new Set<string>();
  const lexical = relativeInside(root, abs) ?? relativeInside(rootReal, abs);
  if (lexical !== undefined) names.add(lexical);
  const real = safeRealpath(abs);
  const realRel = relativeInside(rootReal, real);
  if (realRel !== undefined && real !== abs) names.add(realRel);
  return [...names].filter((n) => n !== '');
}

function relativeInside(root: string, target: string): string | undefined {
  const rel = path.relative(root, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

function packageEntries(pkgFile: string): string[] {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  } catch {
    return [];
  }
  if (!pkg || typeof pkg !== 'object') return [];
  const p = pkg as { main?: unknown; module?: unknown; bin?: unknown; exports?: unknown };
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
  };
  add(p.main ?? 'index.js');
  add(p.module);
  if (typeof p.bin === 'string') add(p.bin);
  else if (p.bin && typeof p.bin === 'object') Object.values(p.bin).forEach(add);
  if (typeof p.exports === 'string') add(p.exports);
  else if (p.exports && typeof p.exports === 'object') {
    const dot = (p.exports as Record<string, unknown>)['.'];
    if (typeof dot === 'string') add(dot);
    else if (dot && typeof dot === 'object') Object.values(dot).forEach(add);
  }
  return out.slice(0, 16);
}

function onPath(name: string, envPath: string, cwd: string): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const full = path.resolve(cwd, dir, name);
    if (statOrUndefined(full)?.isFile()) return full;
  }
  return undefined;
}

function hashOrAbsent(hasher: FileHasher, abs: string, st: Stats): string {
  try {
    return hasher.hash(abs, st);
  } catch {
    return `unreadable:${st.size}`;
  }
}

function sha256File(abs: string): string {
  const h = createHash('sha256');
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      h.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // A missing file: resolve its folder, so `ws/link/new.txt` is judged where it would be created.
    const parent = path.dirname(p);
    return parent === p ? p : path.join(safeRealpath(parent), path.basename(p));
  }
}
