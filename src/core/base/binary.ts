/** How much of a file the binary sniff looks at (git looks at the first 8,000 bytes). */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * The one binary-file check (read_file, grep, the PatchManager, web_fetch of an untyped body): a NUL
 * byte in the first 8 KB, git's heuristic, or mostly invalid UTF-8 there (more than 8 replacement
 * characters and over 10% of the sample), which catches images and archives without a NUL early on.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sample.includes(0)) return true;
  if (sample.length === 0) return false;
  const decoded = new TextDecoder('utf-8').decode(sample);
  let bad = 0;
  for (const ch of decoded) if (ch === '\uFFFD') bad++;
  return bad > 8 && bad / decoded.length > 0.1;
}
