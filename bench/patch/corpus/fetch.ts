/**
 * Fetches published package versions with `npm pack` into bench/.cache and reads their text
 * files. Everything is cached: a second run needs no network.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CACHE_DIR = path.resolve('bench/.cache');
const TEXT_EXT = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx|md)$/;
const MAX_BYTES = 200_000;

/** Returns the directory holding the extracted package (npm's `package/` folder). */
export async function fetchPackage(pkg: string, version: string): Promise<string> {
  const safe = `${pkg.replace(/[@/]/g, '_')}@${version}`;
  const dir = path.join(CACHE_DIR, 'packages', safe);
  const root = path.join(dir, 'package');
  if (existsSync(path.join(dir, '.complete'))) return root;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run('npm', ['pack', `${pkg}@${version}`, '--json', '--pack-destination', dir], {
    maxBuffer: 64 << 20,
  });
  const info = JSON.parse(stdout) as Array<{ filename: string }>;
  const tgz = path.join(dir, info[0].filename);
  await run('tar', ['-xzf', tgz, '-C', dir]);
  rmSync(tgz);
  // Some tarballs use a folder other than package/: normalise.
  if (!existsSync(root)) {
    const [only] = readdirSync(dir);
    if (!only) throw new Error(`${pkg}@${version}: empty tarball`);
    await run('mv', [path.join(dir, only), root]);
  }
  await run('touch', [path.join(dir, '.complete')]);
  return root;
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
