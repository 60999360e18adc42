/**
 * Files that steer a later run: what PatchPilot's own prompt loads (its project instructions, rules,
 * memory and workspace skills) and what other coding agents load as instructions from a repository.
 * An agent that may rewrite them in auto mode can plant "approvals are pre-granted" for the next run,
 * so every one of them is a protected path (protectedPaths.ts adds this whole list): a write, create,
 * delete or rename asks in every approval mode, from patches, file tools and commands alike.
 *
 * The prompt's loaders take their paths from PROMPT_FILES and RULE_FILES below (promptSources.ts,
 * rules/ruleDiscovery.ts, memoryFiles.ts, skillCatalog.ts) and nothing else, so a source the prompt starts to load is protected by
 * construction; test/unit/context/promptSourcesProtected.test.ts records every path the prompt
 * reads and fails for one the protected set does not cover.
 */

/** The workspace paths PatchPilot's prompt reads (files, or folders read whole). */
export const PROMPT_FILES = {
  /** Project instructions. */
  agents: 'AGENTS.md',
  /** More project instructions, `*.md` by name. */
  rulesDir: '.patchpilot/rules',
  /** Facts `remember` kept; loaded as notes, not instructions. */
  memory: '.patchpilot/MEMORY.md',
  /** The journal of what `remember` wrote (consulted for deletions). */
  memoryNotesDir: '.patchpilot/memory',
  /** Workspace skills: SKILL.md folders whose instructions load_skill returns. */
  skillsDir: '.patchpilot/skills',
} as const;

/**
 * Other agents' rules files PatchPilot's prompt also reads (src/core/context/rules): file names
 * looked for in the root and in every folder a run touches, and root-relative files and folders.
 */
export const RULE_FILES = {
  /** Nested project instructions: the root one plus those of the folders a run touches. */
  agents: PROMPT_FILES.agents,
  claude: 'CLAUDE.md',
  /** The user's own (usually git-ignored) Claude Code instructions: root and nested, like CLAUDE.md. */
  claudeLocal: 'CLAUDE.local.md',
  cursorrules: '.cursorrules',
  /** `*.mdc` with front matter (alwaysApply, globs, description). */
  cursorRulesDir: '.cursor/rules',
  /** A file, or a folder of `.md` / `.txt` files. */
  clinerules: '.clinerules',
  rooRulesDir: '.roo/rules',
  /** Followed by the Roo mode: `.roo/rules-code`, `.roo/rules-architect`. */
  rooModeRulesPrefix: '.roo/rules-',
  copilot: '.github/copilot-instructions.md',
  /** `*.instructions.md` with an `applyTo` glob in front matter. */
  copilotInstructionsDir: '.github/instructions',
} as const;

const OWN = 'PatchPilot loads it into later prompts';
const OTHER = 'another coding agent loads it as instructions';

/** Gitignore-style globs (a name without a slash matches at any depth; a folder covers its insides). */
export const INSTRUCTION_FILES: readonly { glob: string; why: string }[] = [
  ...Object.values(PROMPT_FILES).map((rel) => ({ glob: `/${rel}`, why: OWN })),
  // The rules files the prompt reads, by construction: a bare name at any depth (nested ones load too),
  // a path with a slash from the root, the Roo mode prefix as its folders.
  ...Object.values(RULE_FILES).map((rel) => ({ glob: rel.endsWith('-') ? `/${rel}*/` : rel.includes('/') ? `/${rel}` : rel, why: OWN })),
  { glob: 'AGENTS.md', why: `project instructions at any depth: ${OWN}, and other agents read nested ones` },
  { glob: 'AGENT.md', why: OTHER },
  { glob: 'CLAUDE.md', why: `${OWN} (nested ones of the folders a run touches), and ${OTHER}` },
  { glob: 'CLAUDE.local.md', why: `${OWN}, and ${OTHER}` },
  { glob: 'GEMINI.md', why: OTHER },
  { glob: '.cursorrules', why: OTHER },
  { glob: '.cursor/', why: `${OTHER} (rules; also its MCP servers)` },
  { glob: '.windsurfrules', why: OTHER },
  { glob: '.windsurf/', why: OTHER },
  { glob: '.clinerules', why: `${OTHER} (a file or a folder)` },
  { glob: '.roo/', why: `${OTHER} (rules; also its MCP servers)` },
  { glob: '.roorules', why: OTHER },
  { glob: '.roomodes', why: OTHER },
  { glob: '.kilocode/', why: OTHER },
  { glob: '.junie/', why: OTHER },
  { glob: '.agents/', why: `${OTHER} (skills)` },
  { glob: '.claude/', why: `${OTHER} (skills; its settings and hooks run commands)` },
  { glob: '.github/copilot-instructions.md', why: OTHER },
  { glob: '.github/instructions/', why: OTHER },
  { glob: '.github/prompts/', why: OTHER },
  { glob: '.github/chatmodes/', why: OTHER },
  { glob: '.github/agents/', why: OTHER },
  { glob: '.github/skills/', why: `${OTHER} (skills)` },
];
