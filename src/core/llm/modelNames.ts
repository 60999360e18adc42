/**
 * The names one model goes by. Routers prefix a vendor (`openai/gpt-4o`, `accounts/x/models/y`),
 * providers append a date (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`) or `-latest`, Ollama
 * appends a tag (`qwen3:32b`, `llama3.1:latest`), hubs append `-instruct`. Lookups (the user's
 * settings, the catalog) try these names in order, most specific first, and never a looser match
 * than dropping such a suffix: `gpt-4o-audio-preview` is not `gpt-4o`.
 */

const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/;

/** Candidate names of `model`, most specific first, without duplicates. */
export function modelNameCandidates(model: string): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    if (name && !out.includes(name)) out.push(name);
  };
  const trimmed = model.trim();
  const base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  for (const name of [trimmed, base]) {
    add(name);
    add(name.replace(DATE_SUFFIX, ''));
  }
  // Ollama tags: `qwen3:32b` is `qwen3-32b` in catalogs; `:latest` and quantisation tags say nothing of the window.
  const colon = base.indexOf(':');
  if (colon > 0) {
    const name = base.slice(0, colon);
    const tag = base.slice(colon + 1).split(/[-_]/)[0]!;
    if (tag && tag !== 'latest' && /^\d+(\.\d+)?[bm]$/i.test(tag)) add(`${name}-${tag}`);
    add(name);
  }
  for (const name of [...out]) {
    const lower = name.toLowerCase();
    add(lower);
    add(lower.replace(/-(instruct|chat|latest)$/, ''));
  }
  return out;
}

/** The most specific candidate name with an own entry in `table`. */
export function lookupByName<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  for (const name of modelNameCandidates(model)) {
    if (Object.prototype.hasOwnProperty.call(table, name)) return table[name];
  }
  return undefined;
}
