/**
 * Which package versions the corpus is built from. The default set is pinned so a run today and a
 * run next month see the same cases; other packages (`--packages`) get version pairs chosen by
 * the seed from the registry's list of stable versions.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Rng } from '../rng';

const run = promisify(execFile);

export interface VersionPair {
  pkg: string;
  from: string;
  to: string;
}

/**
 * Small plain-JS/TS packages with frequent small releases, 2-4 pairs each: about 100 changed
 * files, so each kind has ~100 cases (one miss = 99%).
 */
export const DEFAULT_PAIRS: Record<string, Array<[string, string]>> = {
  semver: [
    ['7.5.3', '7.5.4'],
    ['7.6.0', '7.6.1'],
    ['7.6.2', '7.6.3'],
    ['7.7.1', '7.7.2'],
  ],
  commander: [
    ['9.4.0', '9.4.1'],
    ['9.4.1', '9.5.0'],
    ['11.0.0', '11.1.0'],
    ['12.0.0', '12.1.0'],
  ],
  minimist: [
    ['1.2.5', '1.2.6'],
    ['1.2.7', '1.2.8'],
  ],
  'yargs-parser': [
    ['20.2.4', '20.2.5'],
    ['20.2.7', '20.2.9'],
  ],
  debug: [
    ['4.3.4', '4.3.5'],
    ['4.3.5', '4.3.6'],
  ],
  chalk: [
    ['5.3.0', '5.4.0'],
    ['5.4.0', '5.4.1'],
  ],
  express: [
    ['4.18.2', '4.18.3'],
    ['4.19.1', '4.19.2'],
  ],
  qs: [
    ['6.11.0', '6.11.1'],
    ['6.12.0', '6.12.1'],
    ['6.13.0', '6.13.1'],
  ],
  picomatch: [
    ['2.3.0', '2.3.1'],
    ['2.3.1', '2.3.2'],
    ['4.0.1', '4.0.2'],
  ],
  dotenv: [
    ['16.0.3', '16.1.0'],
    ['16.3.1', '16.3.2'],
  ],
};

const STABLE = /^\d+\.\d+\.\d+$/;

function compareSemver(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  // A missing part counts as 0, as in semver (1.2 == 1.2.0).
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Up to `count` consecutive stable pairs among the 20 most recent stable versions, chosen by seed. */
export async function choosePairs(pkg: string, seed: number, count = 3): Promise<VersionPair[]> {
  const { stdout } = await run('npm', ['view', pkg, 'versions', '--json'], { maxBuffer: 32 << 20 });
  const parsed: unknown = JSON.parse(stdout);
  const all = (Array.isArray(parsed) ? parsed : [parsed]).filter((v): v is string => typeof v === 'string');
  const stable = all
    .filter((v) => STABLE.test(v))
    .sort(compareSemver)
    .slice(-21);
  const candidates: VersionPair[] = [];
  stable.slice(1).forEach((to, i) => candidates.push({ pkg, from: stable[i] as string, to })); // stable[i] precedes `to`
  return Rng.forLabel(seed, `pairs:${pkg}`).shuffle(candidates).slice(0, count);
}

export async function resolvePairs(packages: string[] | undefined, seed: number): Promise<VersionPair[]> {
  if (!packages) {
    return Object.entries(DEFAULT_PAIRS).flatMap(([pkg, pairs]) => pairs.map(([from, to]) => ({ pkg, from, to })));
  }
  const out: VersionPair[] = [];
  for (const pkg of packages) {
    const pinned = DEFAULT_PAIRS[pkg];
    // A pinned package keeps its pinned pairs only under the default seed; other seeds explore.
    if (pinned && seed === 1) out.push(...pinned.map(([from, to]) => ({ pkg, from, to })));
    else out.push(...(await choosePairs(pkg, seed)));
  }
  return out;
}
