/**
 * A SKILL.md: YAML front matter between `---` lines (`name`, `description`, optional `always`),
 * then the instructions in Markdown. The format other agents use (Claude Code, Codex, OpenCode):
 * their extra keys (`license`, `allowed-tools`, `metadata`) are accepted and ignored. A file
 * without a name takes its folder's name; a file without a description is refused, because the
 * description is all the model sees before it loads the skill.
 */
import { lazyChunk } from '../../base/lazyChunks';
import { plainText } from '../../base';

export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 1_024;

export interface ParsedSkill {
  name: string;
  description: string;
  always: boolean;
  /** The instructions after the front matter. */
  body: string;
}

export type SkillParse = { ok: true; skill: ParsedSkill } | { ok: false; problem: string };

export function parseSkillFile(text: string, folderName: string): SkillParse {
  const normalized = plainText(text);
  const match = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normalized);
  if (!match) return { ok: false, problem: 'no front matter: the file must start with a "---" line, YAML (name, description), and a closing "---" line' };
  let meta: unknown;
  try {
    meta = lazyChunk.yaml().parse(match[1]!);
  } catch (err) {
    return { ok: false, problem: `the front matter is not valid YAML: ${firstLine((err as Error).message)}` };
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta))
    return { ok: false, problem: 'the front matter must be a YAML mapping (name: ..., description: ...)' };
  const m = meta as Record<string, unknown>;

  const name = m.name === undefined ? folderName : m.name;
  if (typeof name !== 'string' || !name.trim()) return { ok: false, problem: '"name" must be a non-empty string' };
  // Names like "pdf-processing" are the norm; early skills of other agents used "PDF Processing": both load.
  if (name.trim().length > MAX_NAME_CHARS || /[\n\r\t/\\]/.test(name.trim())) {
    return { ok: false, problem: `"name" must be one line of at most ${MAX_NAME_CHARS} characters without slashes (got "${firstLine(name).slice(0, 80)}")` };
  }
  if (typeof m.description !== 'string' || !m.description.trim())
    return { ok: false, problem: '"description" is required: a sentence saying when to use the skill' };
  if (m.always !== undefined && typeof m.always !== 'boolean') return { ok: false, problem: '"always" must be true or false' };
  const description = m.description.replace(/\s+/g, ' ').trim();
  return {
    ok: true,
    skill: {
      name: name.trim(),
      description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS - 3)}...` : description,
      always: m.always === true,
      body: normalized.slice(match[0].length).trim(),
    },
  };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
