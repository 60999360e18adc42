import type { PolicyDecision, Verdict } from '../types';

/** One shell word after quote removal, as far as it can be known without running anything. */
export interface Word {
  /** Literal value; parts only known at run time keep their source text (e.g. "$HOME/x"). */
  value: string;
  /** Contains a parameter expansion, command/process/arithmetic substitution or brace expansion. */
  dynamic: boolean;
  /** Contains an unquoted glob character, so the shell may expand it into other words. */
  glob: boolean;
  /** Source text, for messages. */
  raw: string;
}

export type RedirectKind = 'read' | 'write' | 'dup' | 'heredoc' | 'herestring';

export interface Redirect {
  kind: RedirectKind;
  operator: string;
  target?: Word;
  /** Heredoc or here-string body as literal text (for interpreters fed from stdin). */
  body?: Word;
}

/** A simple command as the shell would run it: assignments, argv, redirections. */
export interface SimpleCommand {
  argv: Word[];
  assignments: { name: string; value?: Word }[];
  redirects: Redirect[];
  text: string;
  /** Nesting: 0 = typed by the model, 1 = inside `bash -c '...'`, and so on. */
  depth: number;
  /** The possible working directories at this point (a `cd` earlier may or may not have run). */
  cwds: string[];
}

/** One reason to not simply allow; several may apply to one sub-command. */
export interface Finding {
  verdict: Verdict;
  rule: string;
  reason: string;
  /** A dangerous flag a user allow rule may explicitly permit by naming it. */
  flag?: string;
}

export interface CommandCheckInput {
  command: string;
  workspaceRoot: string;
  cwd: string;
  homeDir: string;
}

/** The policy's decision on a command, and whether it is read-only (policy/command/readOnly.ts). */
export interface CommandDecision extends PolicyDecision {
  /** Set when the command cannot write the workspace or run its code: it need not wait for a test run in the tree. */
  readOnly?: true;
  /**
   * The words (quotes removed) when the command is one plain simple command: no operator, redirection,
   * assignment, expansion or glob, nothing nested. What run_command's test-run recognition reads.
   */
  argv?: string[];
}

export interface CommandPolicy {
  check(input: CommandCheckInput): CommandDecision;
}
