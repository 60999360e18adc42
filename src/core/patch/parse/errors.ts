/**
 * Parsers stop at the first syntax error by throwing this; `parsePatch` turns it into the
 * `{ ok: false, error }` result, so the recursion-free parsers stay straight-line code.
 */
export class PatchSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based line in the original patch text. */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'PatchSyntaxError';
  }
}

export function fail(message: string, line?: number): never {
  throw new PatchSyntaxError(line === undefined ? message : `line ${line}: ${message}`, line);
}
