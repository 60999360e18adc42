import type { Matcher } from '../base/wildcard';
import type { IgnoreRules } from '../git/ignoreRules';
import type { WorkspaceFs } from '../ports';

export interface GrepQuery {
  root: string;
  /** The files the JS search reads (the run's WorkspaceFs: confined, and the host's view of them). */
  fs: WorkspaceFs;
  /** Regular expression (the common subset of JavaScript and Rust regex syntax). */
  pattern: string;
  /** Workspace-relative file or directory to search; '' for everything. */
  path: string;
  /** The include glob on file names ("*.ts", "src/**\/*.{ts,tsx}"), compiled (tools/globPattern). */
  include?: Matcher;
  maxMatches: number;
  rules: IgnoreRules;
  signal: AbortSignal;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface GrepOutcome {
  matches: GrepMatch[];
  /** More matches existed than maxMatches. */
  truncated: boolean;
  engine: 'ripgrep' | 'js';
}

/** Long lines (minified files) are cut so one match cannot flood the context. */
export const GREP_MAX_LINE_CHARS = 300;

export function cutLine(text: string): string {
  return text.length > GREP_MAX_LINE_CHARS ? text.slice(0, GREP_MAX_LINE_CHARS) + ' [...]' : text;
}
