/**
 * A refused patch in one sentence a person reads at a glance, made from the patch engine's report
 * (src/core/patch: "FILE hunk #N (...): REASON." and, for the nearest candidate, the aligned pair
 * `line N: patch "..."` / `file "..."`). The report itself stays behind Details.
 */
export function refusalSentence(report: string): string {
  const hunk = /^(\S[^\n]*?) hunk #(\d+) \([^)]*\): ([^\n]+?)\.?$/m.exec(report);
  const pair = /^\s*line (\d+): patch "(.*)"\n\s*file\s+"(.*)"$/m.exec(report);
  if (hunk && pair) return `The patch expects \`${pair[2]}\` at line ${pair[1]} of ${hunk[1]}; the file has \`${pair[3]}\`.`;
  if (hunk) return `Hunk ${hunk[2]} of ${hunk[1]}: ${hunk[3]}.`;
  const first = report.split('\n').find((l) => l.trim() && !/^The patch was not applied/.test(l));
  return first?.trim() ?? 'The patch does not fit the file.';
}
