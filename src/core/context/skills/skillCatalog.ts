/**
 * The skills a run can use: bundled ones (the extension's or the CLI's `skills/` folder) and the
 * workspace's `.patchpilot/skills/`, where a skill of the same name replaces the bundled one.
 * Each is a folder with a SKILL.md (skillFile.ts) and maybe scripts/ or reference files. Only
 * names and descriptions go into the prompt; `load_skill` reads the rest when the model asks.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../base/errors';
import { PROMPT_FILES } from '../../policy/path/instructionFiles';
import type { WorkspaceReader } from '../workspaceText';
import { parseSkillFile } from './skillFile';

export const WORKSPACE_SKILLS_DIR = PROMPT_FILES.skillsDir;
export const SKILL_FILE = 'SKILL.md';
/** A SKILL.md or a file of a skill is read up to this size. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
const MAX_LISTED_FILES = 50;
const MAX_SKILLS_PER_SOURCE = 200;

export type SkillSource = 'bundled' | 'workspace';

export interface Skill {
  name: string;
  description: string;
  always: boolean;
  source: SkillSource;
  /** The skill's folder as the model should name it: workspace-relative, or absolute for a bundled skill. */
  location: string;
  /** Files of the folder besides SKILL.md (scripts/run.sh, reference.md), relative to it. */
  files: string[];
  /** The instructions (SKILL.md without its front matter), or another file of the folder. */
  read(file?: string): Promise<string>;
}

export class SkillCatalog {
  constructor(
    readonly skills: readonly Skill[],
    /** Skills that could not be loaded, one line each (file and reason). */
    readonly warnings: readonly string[] = [],
  ) {}

  /** By exact name, else ignoring case. */
  find(name: string): Skill | undefined {
    const wanted = name.trim();
    return this.skills.find((s) => s.name === wanted) ?? this.skills.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
  }

  get always(): Skill[] {
    return this.skills.filter((s) => s.always);
  }
}

export interface SkillSources {
  /** The bundled skills folder (extension path or next to the CLI bundle); may be missing. */
  bundledDir?: string;
  /** The workspace's files, through the path policy. */
  workspace?: WorkspaceReader;
}

export async function loadSkillCatalog(sources: SkillSources): Promise<SkillCatalog> {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  if (sources.bundledDir) for (const s of await loadBundled(sources.bundledDir, warnings)) byName.set(s.name.toLowerCase(), s);
  // Workspace skills come second: the same name replaces the bundled skill.
  if (sources.workspace) for (const s of await loadWorkspace(sources.workspace, warnings)) byName.set(s.name.toLowerCase(), s);
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new SkillCatalog(skills, warnings);
}

async function loadBundled(dir: string, warnings: string[]): Promise<Skill[]> {
  const root = await realpath(dir).catch(() => undefined);
  if (!root) return [];
  const out: Skill[] = [];
  for (const entry of (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).slice(0, MAX_SKILLS_PER_SOURCE)) {
    const folder = path.join(root, entry.name);
    const file = path.join(folder, SKILL_FILE);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const parsed = parseSkillFile(text, entry.name);
    if (!parsed.ok) {
      warnings.push(`skill ${file} not loaded: ${parsed.problem}`);
      continue;
    }
    const read = (rel?: string) => readBundled(folder, rel);
    out.push({ ...meta(parsed.skill), source: 'bundled', location: folder, files: await listBundled(folder), read });
  }
  return out;
}

async function loadWorkspace(reader: WorkspaceReader, warnings: string[]): Promise<Skill[]> {
  const out: Skill[] = [];
  for (const entry of (await reader.list(WORKSPACE_SKILLS_DIR)).filter((e) => e.isDir).slice(0, MAX_SKILLS_PER_SOURCE)) {
    const location = `${WORKSPACE_SKILLS_DIR}/${entry.name}`;
    const file = `${location}/${SKILL_FILE}`;
    let text: string | undefined;
    try {
      text = (await reader.read(file, MAX_SKILL_FILE_BYTES))?.text;
    } catch (err) {
      warnings.push(`skill ${file} not loaded: ${errorMessage(err)}`);
      continue;
    }
    if (text === undefined) continue;
    const parsed = parseSkillFile(text, entry.name);
    if (!parsed.ok) {
      warnings.push(`skill ${file} not loaded: ${parsed.problem}`);
      continue;
    }
    const read = async (rel?: string) => {
      const target = rel === undefined ? file : `${location}/${checkedRelative(rel)}`;
      const got = await reader.read(target, MAX_SKILL_FILE_BYTES);
      if (!got) throw new Error(`${target} does not exist`);
      return rel === undefined ? bodyOf(got.text, entry.name) : got.text;
    };
    out.push({ ...meta(parsed.skill), source: 'workspace', location, files: await listWorkspace(reader, location), read });
  }
  return out;
}

function meta(s: { name: string; description: string; always: boolean }) {
  return { name: s.name, description: s.description, always: s.always };
}

/** The instructions without the front matter (as edited now), or the whole text if it no longer parses. */
function bodyOf(text: string, folderName: string): string {
  const parsed = parseSkillFile(text, folderName);
  return parsed.ok ? parsed.skill.body : text;
}

/** A file named by the model, relative to the skill folder: no absolute path, no `..`. */
function checkedRelative(rel: string): string {
  const clean = rel.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!clean || clean.startsWith('/') || /^[a-zA-Z]:/.test(clean) || clean.split('/').some((p) => p === '..' || p === '')) {
    throw new Error(`"${rel}" is not a file inside the skill's folder`);
  }
  return clean;
}

async function readBundled(folder: string, rel?: string): Promise<string> {
  const target = path.join(folder, rel === undefined ? SKILL_FILE : checkedRelative(rel));
  // Bundled folders are ours, but a link inside one must still not lead out of it.
  const real = await realpath(target).catch(() => {
    throw new Error(`${rel ?? SKILL_FILE} does not exist in the skill's folder`);
  });
  if (!real.startsWith(folder + path.sep)) throw new Error(`"${rel}" leads outside the skill's folder`);
  const text = (await readFile(real)).subarray(0, MAX_SKILL_FILE_BYTES).toString('utf8');
  return rel === undefined ? bodyOf(text, path.basename(folder)) : text;
}

async function listBundled(folder: string, sub = '', depth = 0, out: string[] = []): Promise<string[]> {
  const entries = await readdir(path.join(folder, sub), { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (out.length >= MAX_LISTED_FILES) break;
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isFile() && rel !== SKILL_FILE) out.push(rel);
    else if (e.isDirectory() && depth < 2 && !(await lstat(path.join(folder, rel))).isSymbolicLink()) await listBundled(folder, rel, depth + 1, out);
  }
  return out;
}

async function listWorkspace(reader: WorkspaceReader, location: string, sub = '', depth = 0, out: string[] = []): Promise<string[]> {
  for (const e of await reader.list(sub ? `${location}/${sub}` : location)) {
    if (out.length >= MAX_LISTED_FILES) break;
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (!e.isDir && rel !== SKILL_FILE) out.push(rel);
    else if (e.isDir && depth < 2) await listWorkspace(reader, location, rel, depth + 1, out);
  }
  return out;
}
