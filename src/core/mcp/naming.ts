import { createHash } from 'node:crypto';

/** Tool names the model APIs accept: ^[A-Za-z0-9_-]{1,64}$. */
const MAX = 64;

/**
 * `mcp__<server>__<tool>`, the name a server's tool has for the model. Characters the APIs refuse
 * become `_`; a name too long, or one that two tools would share after that, ends in a short hash
 * of the original pair so it stays unique and stable across runs.
 */
export function exposedToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  const plain = `mcp__${clean(server)}__${clean(tool)}`;
  if (plain.length <= MAX && !taken.has(plain) && plain === `mcp__${server}__${tool}`) return plain;
  const suffix = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  const name = `${plain.slice(0, MAX - suffix.length - 1)}_${suffix}`;
  return taken.has(name) ? `${name.slice(0, MAX - 2)}_2` : name;
}
