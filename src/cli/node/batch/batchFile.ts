/**
 * A `patchpilot batch` file: goals, each on a repository (a folder, or a git URL to clone) with its
 * own settings, the options of `patchpilot run` by their flag names. JSON or YAML (YAML reads JSON):
 *
 *   defaults: { model: gpt-4.1, approve: auto-edit, max-cost-usd: 2 }
 *   goals:
 *     - { repo: ./api, goal: make the failing date test pass, test-cmd: npm test }
 *     - { repo: https://git.example/acme/web.git, goal: remove the deprecated parse() overload }
 *
 * A top-level list is the goals without defaults. Every mistake is reported at once, with where.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lazyChunk } from '../../../core/base/lazyChunks';
import { RUN_CONFIG_OPTIONS } from '../runConfig';

export interface BatchItem {
  index: number;
  /** A folder (absolute) or a git URL. */
  repo: string;
  isUrl: boolean;
  goal: string;
  /** The arguments of `patchpilot run` the item's settings make (defaults, then its own). */
  runArgs: string[];
}

type Settings = Record<string, unknown>;
const SETTING_NAMES = Object.keys(RUN_CONFIG_OPTIONS) as (keyof typeof RUN_CONFIG_OPTIONS)[];

export class BatchFileError extends Error {}

export async function loadBatchFile(file: string): Promise<BatchItem[]> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new BatchFileError(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  let doc: unknown;
  try {
    doc = lazyChunk.yaml().parse(text);
  } catch (err) {
    throw new BatchFileError(`${file} is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const { defaults, goals } = Array.isArray(doc) ? { defaults: {}, goals: doc } : ((doc ?? {}) as { defaults?: unknown; goals?: unknown });
  const problems: string[] = [];
  if (!Array.isArray(goals) || goals.length === 0) throw new BatchFileError(`${file}: "goals" must be a non-empty list`);
  if (defaults !== undefined && !isObject(defaults)) problems.push('"defaults" must be a mapping of run options');
  const base = isObject(defaults) ? settingArgs(defaults, 'defaults', problems) : [];
  const folder = path.dirname(path.resolve(file));
  const items = goals.map((entry, index) => itemOf(entry, index, folder, base, problems));
  if (problems.length) throw new BatchFileError(`${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return items as BatchItem[];
}

function itemOf(entry: unknown, index: number, folder: string, base: string[], problems: string[]): BatchItem | undefined {
  const where = `goals[${index}]`;
  if (!isObject(entry)) return void problems.push(`${where} must be a mapping with repo and goal`);
  const { repo, goal, ...settings } = entry;
  if (typeof repo !== 'string' || !repo.trim()) problems.push(`${where}.repo must be a folder or a git URL`);
  if (typeof goal !== 'string' || !goal.trim()) problems.push(`${where}.goal must be a non-empty text`);
  const runArgs = [...base, ...settingArgs(settings, where, problems)];
  if (typeof repo !== 'string' || typeof goal !== 'string') return undefined;
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[\w.-]+@[\w.-]+:/.test(repo);
  return { index, repo: isUrl ? repo : path.resolve(folder, repo), isUrl, goal: goal.trim(), runArgs };
}

/** `{ "max-steps": 20, "test-cmd": ["a", "b"], "trust-workspace": true }` -> run's flags. */
function settingArgs(settings: Settings, where: string, problems: string[]): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    const spec = (RUN_CONFIG_OPTIONS as Record<string, { type: string; multiple?: boolean }>)[name];
    if (!spec) {
      problems.push(`${where}: unknown setting "${name}" (settings are run's options: ${SETTING_NAMES.join(', ')})`);
      continue;
    }
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean') problems.push(`${where}.${name} must be true or false`);
      else if (value) args.push(`--${name}`);
      continue;
    }
    const values = spec.multiple && Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string' && typeof v !== 'number')
        problems.push(`${where}.${name} must be ${spec.multiple ? 'a text or a list of texts' : 'a text or a number'}`);
      else args.push(`--${name}`, String(v));
    }
  }
  return args;
}

function isObject(v: unknown): v is Settings {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
