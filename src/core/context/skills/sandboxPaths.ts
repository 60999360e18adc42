import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The home-relative path of the bundled skills folder when it lies in the home (an installed
 * extension: ~/.vscode/extensions/...), so the sandbox, which hides the home, binds it back
 * read-only and a skill's scripts can run. Empty when the folder is elsewhere (visible anyway).
 */
export function sandboxReadableSkills(bundledDir: string | undefined, home: string = homedir()): string[] {
  if (!bundledDir) return [];
  const rel = path.relative(path.resolve(home), path.resolve(bundledDir));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? [rel] : [];
}
