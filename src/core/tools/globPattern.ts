import { compileGlob, type Matcher } from '../base/wildcard';

/**
 * The file-name glob of the glob tool and grep's include: `**` (any number of directories), `*` and
 * `?` (within one path segment), `{a,b}` alternatives, `[abc]` classes. A pattern without "/"
 * matches a file name at any depth ("*.ts" = "**\/*.ts"), the way people and models write it.
 * Matching is linear (base/wildcard): the model chooses the pattern (attacks.patterns).
 */
export function fileGlob(pattern: string): Matcher {
  let p = pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p.includes('/')) p = `**/${p}`;
  return compileGlob(p);
}
