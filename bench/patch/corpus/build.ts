/**
 * Builds the case corpus: version pairs -> changed files -> one case per (kind, source file),
 * every random choice drawn from a stream seeded by (seed, kind, source).
 */
import { KINDS } from '../kinds';
import type { BenchCase, Kind } from '../kinds/types';
import { Rng } from '../rng';
import { resolvePairs, type VersionPair } from './packages';
import { loadVersionPair, type VersionFiles } from './pairs';

export interface CorpusOptions {
  packages?: string[];
  seed: number;
  /** Max cases per kind (0: no limit). */
  limit: number;
  /** Max changed files taken from one version pair, so one sweeping release does not dominate. */
  maxFilesPerVersion: number;
}

export interface Corpus {
  versions: VersionFiles[];
  cases: BenchCase[];
  /** Version pairs that could not be fetched, with the reason. */
  skipped: Array<{ pair: VersionPair; reason: string }>;
}

export async function buildCorpus(opts: CorpusOptions, kinds: readonly Kind[] = KINDS): Promise<Corpus> {
  const pairs = await resolvePairs(opts.packages, opts.seed);
  const versions: VersionFiles[] = [];
  const skipped: Corpus['skipped'] = [];
  // Two fetches at a time: npm pack is mostly waiting on the network.
  for (let i = 0; i < pairs.length; i += 2) {
    const batch = pairs.slice(i, i + 2);
    const loaded = await Promise.all(
      batch.map((pair) =>
        loadVersionPair(pair).then(
          (value) => ({ pair, value }),
          (reason: unknown) => ({ pair, reason }),
        ),
      ),
    );
    for (const r of loaded) {
      if ('value' in r) versions.push(capFiles(r.value, opts));
      else skipped.push({ pair: r.pair, reason: firstLine(r.reason) });
    }
  }
  return { versions, cases: makeCases(versions, opts, kinds), skipped };
}

function capFiles(v: VersionFiles, opts: CorpusOptions): VersionFiles {
  if (v.changed.length <= opts.maxFilesPerVersion) return v;
  const label = `cap:${v.pair.pkg}@${v.pair.from}..${v.pair.to}`;
  const kept = Rng.forLabel(opts.seed, label).shuffle(v.changed).slice(0, opts.maxFilesPerVersion);
  return { ...v, changed: kept.sort((a, b) => a.path.localeCompare(b.path)) };
}

export function makeCases(versions: VersionFiles[], opts: CorpusOptions, kinds: readonly Kind[] = KINDS): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const kind of kinds) {
    const seen = new Set<string>();
    const sources = versions.flatMap((version) => version.changed.map((pair) => ({ version, pair })));
    const order = Rng.forLabel(opts.seed, `order:${kind.name}`).shuffle(sources);
    let made = 0;
    for (const { version, pair } of order) {
      if (opts.limit > 0 && made >= opts.limit) break;
      const rng = Rng.forLabel(opts.seed, `${kind.name}:${pair.source}`);
      const draft = kind.make({ rng, pair, version });
      if (!draft || seen.has(draft.patch)) continue;
      seen.add(draft.patch);
      const source = draft.source ?? pair.source;
      cases.push({
        id: `${kind.name}:${source}`,
        kind: kind.name,
        format: kind.format,
        expectation: kind.expectation,
        files: draft.files,
        patch: draft.patch,
        expected: draft.expected,
        source,
        variant: draft.variant,
      });
      made++;
    }
  }
  return cases;
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n').find((l) => l.trim() !== '') ?? msg;
}
