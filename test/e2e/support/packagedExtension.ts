// The UI tests drive the extension a user installs: the packaged VSIX (scripts/package.mjs, checked
// there), installed by VS Code's own installer (code-server --install-extension) into a fresh profile.
// Installing takes ~7 s of wall time, so each VSIX is installed once into a cache keyed by its bytes
// and every test copies that folder (with its extensions.json, pointed at the copy).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../../..');
export const VSIX = path.join(repoRoot, 'patchpilot.vsix');
const LOCATION = '/@patchpilot-extensions-dir@';

/** Newest modification time under dist/ and of package.json: what the VSIX must not be older than. */
function newestInput(): number {
  let newest = statSync(path.join(repoRoot, 'package.json')).mtimeMs;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(path.join(repoRoot, 'dist'));
  return newest;
}

/** The VSIX of the current build: packaged again (without building) when the build is newer. */
export function currentVsix(): string {
  if (existsSync(VSIX) && statSync(VSIX).mtimeMs >= newestInput()) return VSIX;
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/package.mjs'), '--no-build'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`packaging the VSIX failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return VSIX;
}

/** A folder where `vsix` is installed by code-server's installer, made once per VSIX content. */
function installedOnce(vsix: string, codeServerEntry: string): string {
  const key = createHash('sha256').update(readFileSync(vsix)).digest('hex').slice(0, 16);
  const cacheRoot = path.join(repoRoot, '.vscode-test', 'vsix-installed');
  const done = path.join(cacheRoot, key);
  if (existsSync(path.join(done, 'ext', 'extensions.json'))) return done;
  // Installed beside the cache entry, then renamed: a test process running alongside never sees half an install.
  const partial = path.join(cacheRoot, `${key}.${process.pid}.partial`);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const args = [codeServerEntry, '--extensions-dir', path.join(partial, 'ext'), '--user-data-dir', path.join(partial, 'ud'), '--install-extension', vsix];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: path.join(partial, 'xdg') } });
  if (result.status !== 0 || !existsSync(path.join(partial, 'ext', 'extensions.json')))
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  // The registry names the install's absolute location; keep it as a placeholder that each copy replaces.
  const registry = path.join(partial, 'ext', 'extensions.json');
  writeFileSync(registry, readFileSync(registry, 'utf8').split(path.join(partial, 'ext')).join(LOCATION));
  rmSync(path.join(partial, 'ud'), { recursive: true, force: true });
  try {
    renameSync(partial, done);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another process finished first: its install is the same bytes
  }
  return done;
}

/** Installs the packaged extension into `extensionsDir` as code-server's installer laid it out. */
export function installPackagedExtension(extensionsDir: string, codeServerEntry: string): string {
  const cached = installedOnce(currentVsix(), codeServerEntry);
  const source = path.join(cached, 'ext');
  const registry = JSON.parse(readFileSync(path.join(source, 'extensions.json'), 'utf8')) as { relativeLocation: string }[];
  for (const entry of registry) cpSync(path.join(source, entry.relativeLocation), path.join(extensionsDir, entry.relativeLocation), { recursive: true });
  // extensions.json names each extension's absolute location: point it at this profile's copy.
  writeFileSync(path.join(extensionsDir, 'extensions.json'), readFileSync(path.join(source, 'extensions.json'), 'utf8').split(LOCATION).join(extensionsDir));
  return path.join(extensionsDir, registry[0]!.relativeLocation);
}
