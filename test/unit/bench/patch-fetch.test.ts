// The patch benchmark's package cache: version pairs fetched together often share a version, and
// both fetches used to clear and refill one folder (one deleting the tarball the other was still
// extracting), so a fresh cache gave a different corpus than a warm one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchPackage, type Pack } from '../../../bench/patch/corpus/fetch';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'pp-bench-fetch-'));
  dirs.push(d);
  return d;
};

/** A stand-in for `npm pack`: a real tarball of `package/index.js` naming the version, after a delay. */
function fakePack(calls: string[]): Pack {
  return async (pkg, version, dir) => {
    calls.push(`${pkg}@${version}`);
    const src = tempDir();
    mkdirSync(path.join(src, 'package'));
    writeFileSync(path.join(src, 'package', 'index.js'), `module.exports = '${version}';\n`);
    await new Promise((r) => setTimeout(r, 30));
    const tgz = path.join(dir, `${pkg}-${version}.tgz`);
    execFileSync('tar', ['-czf', tgz, '-C', src, 'package']);
    await new Promise((r) => setTimeout(r, 30));
    return tgz;
  };
}

test('two pairs sharing a version fetch it once, and both get the whole package', async () => {
  const cache = tempDir();
  const calls: string[] = [];
  const pack = fakePack(calls);
  // Pairs 1.0 -> 1.1 and 1.1 -> 1.2, fetched together as buildCorpus does.
  const roots = await Promise.all([
    fetchPackage('lib', '1.0.0', pack, cache),
    fetchPackage('lib', '1.1.0', pack, cache),
    fetchPackage('lib', '1.1.0', pack, cache),
    fetchPackage('lib', '1.2.0', pack, cache),
  ]);
  assert.deepEqual(calls.sort(), ['lib@1.0.0', 'lib@1.1.0', 'lib@1.2.0']);
  assert.equal(roots[1], roots[2]);
  for (const [i, v] of ['1.0.0', '1.1.0', '1.1.0', '1.2.0'].entries()) {
    assert.equal(readFileSync(path.join(roots[i]!, 'index.js'), 'utf8'), `module.exports = '${v}';\n`);
  }
  // Nothing half-done is left behind, and a warm cache needs no fetch.
  assert.deepEqual(readdirSync(path.join(cache, 'packages')).sort(), ['lib@1.0.0', 'lib@1.1.0', 'lib@1.2.0']);
  await fetchPackage('lib', '1.1.0', pack, cache);
  assert.equal(calls.length, 3);
});

test('a failed fetch leaves no partial folder and is retried next time', async () => {
  const cache = tempDir();
  const failing: Pack = () => Promise.reject(new Error('network down'));
  await assert.rejects(fetchPackage('lib', '2.0.0', failing, cache), /network down/);
  assert.deepEqual(readdirSync(path.join(cache, 'packages')), []);
  const calls: string[] = [];
  const root = await fetchPackage('lib', '2.0.0', fakePack(calls), cache);
  assert.equal(readFileSync(path.join(root, 'index.js'), 'utf8'), "module.exports = '2.0.0';\n");
});
