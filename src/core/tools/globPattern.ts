/**
 * The file-name glob of the glob tool and grep's include: `**` (any number of directories), `*` and
 * `?` (within one path segment), `{a,b}` alternatives, `[abc]` classes. A pattern without "/"
 * matches a file name at any depth ("*.ts" = "**\/*.ts"), the way people and models write it.
 * Matching is linear (base/wildcard): the model chooses the pattern (attacks.patterns). The one
 * implementation lives in base, so the prompt's rules files (context/rules) match the same way.
 */
export { fileGlob } from '../base/wildcard';
