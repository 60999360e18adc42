/** What a case is, and what a kind (a class of patch defects) must provide to make cases. */
import type { SourcePair, VersionFiles } from '../corpus/pairs';
import type { Rng } from '../rng';

export type PatchFormat = 'unified' | 'apply_patch' | 'search_replace';

/**
 * - exact: the patch must apply and give exactly `expected`.
 * - exact-or-refuse: `expected` or a refusal; anything else applied is wrong.
 * - refuse: any applied result is wrong (expected is null).
 */
export type Expectation = 'exact' | 'exact-or-refuse' | 'refuse';

export interface BenchCase {
  id: string;
  kind: string;
  format: PatchFormat;
  expectation: Expectation;
  /** Input file set, path -> text. */
  files: Record<string, string>;
  patch: string;
  /** The complete file set after a correct apply; null when the only correct outcome is refusal. */
  expected: Record<string, string> | null;
  /** Where the change came from (`pkg@from..to:path`, several for multi-file cases). */
  source: string;
  /** Free-form note on the corruption chosen (offsets, variant), for the failure log. */
  variant?: string;
}

export interface KindContext {
  rng: Rng;
  pair: SourcePair;
  /** The version pair the source pair belongs to (other files, other changed files). */
  version: VersionFiles;
}

/** What a generator returns; the corpus builder adds id, kind, format and expectation. */
export type CaseDraft = Pick<BenchCase, 'files' | 'patch' | 'expected' | 'variant'> & { source?: string };

export interface Kind {
  name: string;
  /** must-apply rows count toward the >= 99% exact target; the others toward "never wrong". */
  group: 'must-apply' | 'must-not-apply-wrong';
  format: PatchFormat;
  expectation: Expectation;
  /** One line for the README and the table legend. */
  description: string;
  /** A case from this source pair, or null when the pair does not fit this kind. */
  make(ctx: KindContext): CaseDraft | null;
}
