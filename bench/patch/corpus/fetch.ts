/**
 * Fetches published package versions with `npm pack` into bench/.cache and reads their text
 * files. Everything is cached: a second run needs no network.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CACHE_DIR = path.resolve('bench/.cache');
const TEXT_EXT = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx|md)$/;
const MAX_BYTES = 200_000;

/** Downloads `pkg@version` as a tarball into `dir`; returns the tarball's path. */
export type Pack = (pkg: string, version: string, dir: string) => Promise<string>;

const npmPack: Pack = async (pkg, version, dir) => {
  const { stdout } = await run('npm', ['pack', `${pkg}@${version}`, '--json', '--pack-destination', dir], { maxBuffer: 64 << 20 });
  const info = JSON.parse(stdout) as Array<{ filename: string }>;
  const filename = info[0]?.filename;
  if (filename === undefined) throw new Error(`npm pack ${pkg}@${version} reported no tarball`);
  return path.join(dir, filename);
};

/**
 * Fetches in flight, by cache folder. Two version pairs fetched together often share a version
 * (a 1.0->1.1 and a 1.1->1.2 pair): both used to clear and refill the same folder, one deleting
 * the tarball the other was extracting, so a fresh cache gave a different corpus than a warm one.
 */
const inFlight = new Map<string, Promise<string>>();

/** Returns the directory holding the extracted package (npm's `package/` folder). */
export function fetchPackage(pkg: string, version: string, pack: Pack = npmPack, cacheDir = CACHE_DIR): Promise<string> {
  const safe = `${pkg.replace(/[@/]/g, '_')}@${version}`;
  const dir = path.join(cacheDir, 'packages', safe);
  let pending = inFlight.get(dir);
  if (!pending) {
    pending = fetchInto(dir, pkg, version, pack).finally(() => inFlight.delete(dir));
    inFlight.set(dir, pending);
  }
  return pending;
}

/** Extracts into a private folder and renames it into place: the cache never holds half a package. */
async function fetchInto(dir: string, pkg: string, version: string, pack: Pack): Promise<string> {
  const root = path.join(dir, 'package');
  if (existsSync(path.join(dir, '.complete'))) return root;
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const tgz = await pack(pkg, version, work);
    await run('tar', ['-xzf', tgz, '-C', work]);
    rmSync(tgz);
    // Some tarballs use a folder other than package/: normalise.
    const workRoot = path.join(work, 'package');
    if (!existsSync(workRoot)) {
      const [only] = readdirSync(work);
      if (!only) throw new Error(`${pkg}@${version}: empty tarball`);
      renameSync(path.join(work, only), workRoot);
    }
    writeFileSync(path.join(work, '.complete'), '');
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return root;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Source-like text files (LF only, not minified, not huge), keyed by forward-slash relative path. */
export function readTextFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) {
        if (name !== 'node_modules') walk(full);
      } else if (TEXT_EXT.test(name) && st.size > 0 && st.size <= MAX_BYTES && !name.includes('.min.')) {
        const text = readFileSync(full, 'utf8');
        if (isPlainText(text)) out.set(path.relative(root, full).split(path.sep).join('/'), text);
      }
    }
  };
  walk(root);
  return out;
}

function isPlainText(text: string): boolean {
  if (text.includes('\0') || text.includes('\r') || text.includes('\uFFFD')) return false;
  const lines = text.split('\n');
  return text.length / lines.length < 160; // minified bundles have very long lines
}
