/**
 * A reproducible stream of numbers in [0, 1) for property and fuzz tests: the same seed gives the
 * same cases on every run, so a failure names a case that can be replayed. The generator is the
 * patch benchmark's (mulberry32), kept in one place.
 */
import { Rng } from '../../bench/patch/rng';

export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}
