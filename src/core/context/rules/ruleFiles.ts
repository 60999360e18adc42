/**
 * The rules files of PatchPilot and of other coding agents, as the prompt sees them: where one
 * lives, when it applies, and its text. docs/rules.md is the user's version of this.
 */
import type { ApprovalMode } from '../../config/settings';

export type RuleActivation =
  /** At the root, or `alwaysApply: true`, or `applyTo: "**"`: in every prompt. */
  | { kind: 'always' }
  /** A nested AGENTS.md / CLAUDE.md: once the run reads or edits a file below `folder`. */
  | { kind: 'nested'; folder: string }
  /** Cursor's `globs:`, Copilot's `applyTo`: once the run reads or edits a matching file. */
  | { kind: 'globs'; globs: string[] }
  /** Cursor's description-only rules: listed by description; the model reads the file itself. */
  | { kind: 'requested'; description: string };

export interface RuleFile {
  /** Workspace-relative path. */
  path: string;
  activation: RuleActivation;
  /** The body (front matter removed), with a cut notice at its end when the file was too long. */
  text: string;
}

/** A file's share: longer ones are cut with a notice that says how to read the rest. */
export const MAX_RULE_FILE_BYTES = 64 * 1024;
/** All rules together (before the prompt's token share cuts them further): later ones are not loaded. */
export const MAX_RULES_TOTAL_BYTES = 256 * 1024;
/** Files taken from one rules folder (by name). */
export const MAX_RULE_FILES_PER_FOLDER = 30;

/** Roo Code's mode for `.roo/rules-<mode>/`: plan mode plans like Roo's architect, every other mode codes. */
export function rooModeFor(mode: ApprovalMode): 'architect' | 'code' {
  return mode === 'plan' ? 'architect' : 'code';
}

/** How a rule came in, for the chat, the CLI and the prompt's headings. */
export function describeActivation(rule: RuleFile, matched?: string): string {
  const a = rule.activation;
  switch (a.kind) {
    case 'always':
      return 'always';
    case 'nested':
      return `folder ${a.folder}/ touched`;
    case 'globs':
      return `globs ${a.globs.join(', ')}${matched ? `: ${matched}` : ''}`;
    case 'requested':
      return `listed: ${a.description}`;
  }
}
