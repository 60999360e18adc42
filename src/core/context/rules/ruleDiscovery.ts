/**
 * Finds the rules files at the start of a run, in the order the prompt lists them: AGENTS.md,
 * CLAUDE.md, CLAUDE.local.md, `.patchpilot/rules/*.md`, Cursor, Cline, Roo, Copilot. Each file goes
 * through the workspace reader (the path policy, a confined open); one that cannot be read, or whose
 * front matter is malformed, is left out with a warning and never fails the run. The paths come
 * from RULE_FILES (policy/path/instructionFiles.ts), the list the protected set is built from.
 */
import type { RuleSourceName } from '../../config/settings';
import { errorMessage } from '../../base/errors';
import { PROMPT_FILES, RULE_FILES } from '../../policy/path/instructionFiles';
import type { WorkspaceReader } from '../workspaceText';
import { globList, isTrue, splitFrontMatter } from './frontMatter';
import { MAX_RULE_FILE_BYTES, MAX_RULE_FILES_PER_FOLDER, type RuleActivation, type RuleFile } from './ruleFiles';

export interface DiscoveryOptions {
  sources: Record<RuleSourceName, boolean>;
  /** Roo Code's mode (rooModeFor). */
  rooMode: string;
}

export interface Discovered {
  rules: RuleFile[];
  warnings: string[];
}

/** The file names looked for in the root and in each folder a run touches, by source. */
export function folderRuleNames(sources: Record<RuleSourceName, boolean>): string[] {
  return [...(sources.agentsMd ? [RULE_FILES.agents] : []), ...(sources.claudeMd ? [RULE_FILES.claude, RULE_FILES.claudeLocal] : [])];
}

export async function discoverRules(reader: WorkspaceReader, options: DiscoveryOptions): Promise<Discovered> {
  const { sources } = options;
  const out: Discovered = { rules: [], warnings: [] };
  const loader = ruleReader(reader, out.warnings);
  const add = (rule: RuleFile | undefined) => {
    if (rule) out.rules.push(rule);
  };

  for (const name of folderRuleNames(sources)) add(await loader.plain(name, { kind: 'always' }));
  for (const rel of await loader.folder(PROMPT_FILES.rulesDir, ['.md'])) add(await loader.plain(rel, { kind: 'always' }));
  if (sources.cursor) {
    add(await loader.plain(RULE_FILES.cursorrules, { kind: 'always' }));
    for (const rel of await loader.folder(RULE_FILES.cursorRulesDir, ['.mdc'])) add(await loader.cursorRule(rel));
  }
  if (sources.cline) {
    const files = await loader.folder(RULE_FILES.clinerules, ['.md', '.txt']);
    if (files.length) for (const rel of files) add(await loader.plain(rel, { kind: 'always' }));
    else add(await loader.plain(RULE_FILES.clinerules, { kind: 'always' }, { folderIsAbsent: true }));
  }
  if (sources.roo) {
    for (const dir of [RULE_FILES.rooRulesDir, `${RULE_FILES.rooModeRulesPrefix}${options.rooMode}`])
      for (const rel of await loader.folder(dir, [''])) add(await loader.plain(rel, { kind: 'always' }));
  }
  if (sources.copilot) {
    add(await loader.plain(RULE_FILES.copilot, { kind: 'always' }));
    for (const rel of await loader.folder(RULE_FILES.copilotInstructionsDir, ['.instructions.md'])) add(await loader.copilotInstructions(rel));
  }
  return out;
}

/** Reads one rules file of each shape; problems go to `warnings`. */
export function ruleReader(reader: WorkspaceReader, warnings: string[]) {
  const read = async (rel: string, o: { folderIsAbsent?: boolean } = {}): Promise<string | undefined> => {
    try {
      const got = await reader.read(rel, MAX_RULE_FILE_BYTES);
      if (!got) return undefined;
      if (!got.truncated) return got.text;
      warnings.push(`${rel} is over ${MAX_RULE_FILE_BYTES / 1024} KB; only its beginning is in the prompt`);
      return `${got.text}\n[cut: ${rel} is over ${MAX_RULE_FILE_BYTES / 1024} KB and only its beginning is loaded; read_file it for the rest]`;
    } catch (err) {
      // An empty .clinerules folder is not a file and not a problem.
      if (o.folderIsAbsent && /not a regular file/.test(errorMessage(err))) return undefined;
      warnings.push(`${rel} is not used in the prompt: ${errorMessage(err)}`);
      return undefined;
    }
  };
  const withFrontMatter = async (rel: string, activationOf: (meta: Record<string, unknown>) => RuleActivation | string | undefined) => {
    const text = await read(rel);
    if (text === undefined) return undefined;
    const fm = splitFrontMatter(text);
    if (!fm.ok) {
      warnings.push(`${rel} is not loaded: ${fm.problem}`);
      return undefined;
    }
    const activation = activationOf(fm.meta);
    if (typeof activation === 'string') {
      warnings.push(`${rel} is not loaded: ${activation}`);
      return undefined;
    }
    if (!activation || !fm.body.trim()) return undefined;
    return { path: rel, activation, text: fm.body } satisfies RuleFile;
  };
  return {
    async plain(rel: string, activation: RuleActivation, o: { folderIsAbsent?: boolean } = {}): Promise<RuleFile | undefined> {
      const text = await read(rel, o);
      return text?.trim() ? { path: rel, activation, text } : undefined;
    },
    /** The files of a folder whose names end with one of `endings` ('' = any), by name, capped. */
    async folder(dir: string, endings: string[]): Promise<string[]> {
      const entries = (await reader.list(dir)).filter((e) => !e.isDir && !e.name.startsWith('.') && endings.some((x) => e.name.endsWith(x)));
      if (entries.length > MAX_RULE_FILES_PER_FOLDER)
        warnings.push(`${dir} has ${entries.length} rules files; only the first ${MAX_RULE_FILES_PER_FOLDER} by name are used`);
      return entries.slice(0, MAX_RULE_FILES_PER_FOLDER).map((e) => `${dir}/${e.name}`);
    },
    /** Cursor: `alwaysApply: true` always, else `globs`, else a `description` lists it; none of them: a manual rule, not loaded. */
    cursorRule: (rel: string) =>
      withFrontMatter(rel, (meta) => {
        if (isTrue(meta.alwaysApply)) return { kind: 'always' };
        const globs = globList(meta.globs);
        if (!globs) return '"globs" must be a glob, a comma-separated list of globs, or a list';
        if (globs.length) return { kind: 'globs', globs };
        if (typeof meta.description === 'string' && meta.description.trim()) return { kind: 'requested', description: oneLine(meta.description) };
        return undefined;
      }),
    /** Copilot: `applyTo` globs (`**` = always); without it the file is only attached by hand in VS Code, so not loaded. */
    copilotInstructions: (rel: string) =>
      withFrontMatter(rel, (meta) => {
        const globs = globList(meta.applyTo);
        if (!globs) return '"applyTo" must be a glob or a comma-separated list of globs';
        if (globs.some((g) => g === '**' || g === '**/*' || g === '*')) return { kind: 'always' };
        if (globs.length) return { kind: 'globs', globs };
        if (typeof meta.description === 'string' && meta.description.trim()) return { kind: 'requested', description: oneLine(meta.description) };
        return undefined;
      }),
  };
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 197)}...` : t;
}
