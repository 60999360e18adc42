/**
 * Glob to RegExp: `**` (any number of directories), `*` and `?` (within one path segment),
 * `{a,b}` alternatives, `[abc]` classes. A pattern without "/" matches a file name at any depth
 * ("*.ts" = "**\/*.ts"), the way people and models write it.
 */
export function globToRegExp(pattern: string): RegExp {
  let p = pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p.includes('/')) p = `**/${p}`;
  let re = '';
  let braces = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') {
      if (p[i + 1] === '*') {
        const atSegmentStart = i === 0 || p[i - 1] === '/';
        i++;
        if (p[i + 1] === '/' && atSegmentStart) {
          i++;
          re += '(?:[^/]*/)*'; // "**/": zero or more whole directories
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const close = p.indexOf(']', i + 1);
      if (close === -1) re += '\\[';
      else {
        let body = p.slice(i + 1, close).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  if (braces > 0) throw new Error(`unbalanced "{" in glob ${JSON.stringify(pattern)}`);
  return new RegExp(`^${re}$`);
}
