/**
 * The default file name of a run's export (pure, no `vscode`): the day and the goal in words, so a
 * folder of exports reads as a list of what was done ("patchpilot-2026-11-28-fix-the-date-parser.md"),
 * not as ids.
 */
export function exportFileName(goal: string, startedAt: number, ext: string): string {
  const day = new Date(startedAt).toISOString().slice(0, 10);
  const words = goal
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let slug = words.slice(0, 48);
  if (words.length > 48 && slug.includes('-')) slug = slug.slice(0, slug.lastIndexOf('-'));
  return `patchpilot-${day}-${slug || 'run'}.${ext}`;
}
