import { fenceLikeInfo, isBlank, isFenceLike } from './lines';
import { pathFromFenceInfo, pathFromLine, pathMentionedIn } from './paths';

/**
 * Where a SEARCH/REPLACE block says which file it edits: on the line before its marker, in the
 * info of the fence (or fence tag) that opens it, on the first line inside that fence, or in a
 * fence of its own before the block (```` ``` ```` / `src/app.py` / ```` ``` ````, then the
 * block's fence). Looks back past at most three fence lines and never before `floor` (the end
 * of the previous block), so the look-back stays linear overall.
 */
export interface BlockPath {
  path?: string;
  /** 1-based line the path was read from. */
  line?: number;
  /** The block sits inside a fence or fence tag (its end is the closing fence). */
  fenced: boolean;
}

const MAX_FENCES = 3;

export function pathBefore(lines: readonly string[], marker: number, floor: number): BlockPath {
  let fences = 0;
  let fenced = false;
  for (let k = marker - 1; k >= floor; k--) {
    const s = lines[k]!;
    if (isBlank(s)) continue;
    if (isFenceLike(s)) {
      // The fence nearest the marker is the one that opens the block.
      if (fences === 0) fenced = true;
      const fromInfo = pathFromFenceInfo(fenceLikeInfo(s));
      if (fromInfo !== undefined) return { path: fromInfo, line: k + 1, fenced };
      if (++fences >= MAX_FENCES) break;
      continue;
    }
    const found = pathFromLine(s) ?? pathMentionedIn(s);
    if (found === undefined) return { fenced };
    // The first line inside the fence: the fence before the path opens the block.
    if (!fenced && fences === 0) fenced = opensFence(lines, k, floor);
    return { path: found, line: k + 1, fenced };
  }
  return { fenced };
}

function opensFence(lines: readonly string[], k: number, floor: number): boolean {
  for (let q = k - 1; q >= floor; q--) {
    if (isBlank(lines[q]!)) continue;
    return isFenceLike(lines[q]!);
  }
  return false;
}
