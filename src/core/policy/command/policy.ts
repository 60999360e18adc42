import path from 'node:path';
import { strictest, type PolicyDecision } from '../types';
import { createBashParser, type BashParser } from './bashParser';
import { DEFAULT_ALLOW_RULES } from './defaults';
import { textualDenyFindings } from './deny';
import { evaluateSimple, type EvalEnv } from './evaluate';
import { extractCommands } from './extract';
import { notReadOnly } from './readOnly';
import { buildUserRules, type CommandPolicyConfig } from './settings';
import type { TestDefinitionGuard } from './testDefinitionGuard';
import type { CommandCheckInput, CommandDecision, CommandPolicy, Finding, SimpleCommand } from './types';
import { errorMessage } from '../../base';

export interface CommandPolicyOptions extends CommandPolicyConfig {
  /** (attacks.commands) makes changed test definitions ask again. */
  testGuard?: TestDefinitionGuard;
}

export interface LoadedCommandPolicy extends CommandPolicy {
  /** Settings that could not be used, to show the user (never silently widened). */
  readonly settingsErrors: readonly string[];
}

const MAX_INPUT_CHARS = 64 * 1024;
// Each invisible code point on its own (combining joiners and variation selectors included) is the point.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/;

/** Async because tree-sitter's wasm loads asynchronously; `check()` is synchronous afterwards. */
export async function createCommandPolicy(options: CommandPolicyOptions): Promise<LoadedCommandPolicy> {
  const parser = await createBashParser();
  return new ShellCommandPolicy(parser, options);
}

class ShellCommandPolicy implements LoadedCommandPolicy {
  readonly settingsErrors: readonly string[];
  private readonly userRules;
  private readonly maxSubcommands: number;
  private readonly maxDepth: number;

  constructor(
    private readonly parser: BashParser,
    private readonly options: CommandPolicyOptions,
  ) {
    const built = buildUserRules(options);
    this.userRules = built.rules;
    this.settingsErrors = built.errors;
    this.maxSubcommands = options.maxSubcommands ?? 16;
    this.maxDepth = options.maxDepth ?? 3;
  }

  check(input: CommandCheckInput): CommandDecision {
    const parts: PolicyDecision[] = [];
    /** Cleared by the first sub-command (or syntax) that could write the workspace or run its code (readOnly.ts). */
    const reads = { only: true };
    /** The words of the command when, at the top level, it is one simple command of plain words. */
    const plain: { argv?: string[] } = {};
    const counter = { count: 0 };
    const raw = input.command;
    const workspaceRoot = path.resolve(input.workspaceRoot);
    const cwd = path.resolve(workspaceRoot, input.cwd);
    const scriptFindings: Finding[] = [];
    let degraded = false;
    if (typeof raw !== 'string' || raw.trim() === '') {
      return { verdict: 'ask', rule: 'ask:empty-command', reason: 'The command is empty.', parts: [] };
    }
    if (raw.includes('\0')) scriptFindings.push(ask('ask:null-byte', 'The command contains a NUL byte, which the shell would cut it at.'));
    if (raw.includes('\r'))
      scriptFindings.push(
        ask('ask:carriage-return', 'The command contains a carriage return, which hides text when displayed and separates commands in some shells.'),
      );
    if (INVISIBLE.test(raw)) scriptFindings.push(ask('ask:invisible-characters', 'The command contains invisible or direction-changing Unicode characters.'));
    if (/\\\r?\n/.test(raw))
      scriptFindings.push(ask('ask:line-continuation', 'The command uses backslash-newline line continuations, which can split words in misleading ways.'));
    // Parse what the shell would see; CR and NUL are turned into separators so deny rules see both halves.
    const text = raw.replace(/\0/g, '\n').replace(/\r/g, '\n');
    if (text.length > MAX_INPUT_CHARS) {
      scriptFindings.push(ask('ask:too-long', `The command is ${text.length} characters long; commands over ${MAX_INPUT_CHARS} are not parsed.`));
      degraded = true;
    } else {
      const env = this.env(workspaceRoot, input.homeDir, counter, reads, plain);
      const before = parts.length;
      try {
        env.evaluateScript(text, 0, [cwd], parts);
      } catch (err) {
        // Whatever went wrong, the answer is never "allow".
        scriptFindings.push(ask('ask:internal-error', `The command could not be analysed (${errorMessage(err)}).`));
        degraded = true;
      }
      if (counter.count > this.maxSubcommands) {
        scriptFindings.push(
          ask(
            'ask:too-many-subcommands',
            `The command has ${counter.count} sub-commands; more than ${this.maxSubcommands} are never allowed without approval.`,
          ),
        );
        degraded = true;
      }
      if (parts.slice(before).some((p) => /^ask:(parse-error|unknown-syntax|nesting-too-deep|too-deep|too-complex)$/.test(p.rule))) degraded = true;
    }
    if (degraded || scriptFindings.length) scriptFindings.push(...textualDenyFindings(raw));
    parts.unshift(...scriptFindings.map((f) => ({ verdict: f.verdict, rule: f.rule, reason: f.reason })));
    const worst = strictest(parts, { verdict: 'ask', rule: 'ask:no-command', reason: 'Nothing to run was found in the command.' });
    const readOnly = reads.only && !degraded && scriptFindings.length === 0 && counter.count > 0 ? (true as const) : undefined;
    const argv = plain.argv && !degraded && scriptFindings.length === 0 && counter.count === 1 ? plain.argv : undefined;
    return { verdict: worst.verdict, rule: worst.rule, reason: summarize(worst, parts), parts, ...(readOnly ? { readOnly } : {}), ...(argv ? { argv } : {}) };
  }

  private env(workspaceRoot: string, homeDir: string, counter: { count: number }, reads: { only: boolean }, plain: { argv?: string[] }): EvalEnv {
    const self = this;
    const functions = new Set<string>();
    const env: EvalEnv = {
      workspaceRoot,
      homeDir: path.resolve(homeDir),
      userRules: this.userRules,
      defaultRules: DEFAULT_ALLOW_RULES,
      isIgnoredPath: this.options.isIgnoredPath,
      testGuard: this.options.testGuard,
      functions,
      evaluateScript(script, depth, cwds, parts) {
        // A shell string inside a command (`bash -c`) comes from a program that is not read-only.
        if (depth > 0) reads.only = false;
        if (depth > self.maxDepth) {
          parts.push({ verdict: 'ask', rule: 'ask:nesting-too-deep', reason: `Shell strings nested more than ${self.maxDepth} levels deep are not followed.` });
          for (const f of textualDenyFindings(script)) parts.push({ verdict: f.verdict, rule: f.rule, reason: f.reason });
          return;
        }
        const tree = self.parser.parse(script);
        if (!tree) {
          parts.push({ verdict: 'ask', rule: 'ask:parse-error', reason: 'The shell parser gave up on this command.' });
          return;
        }
        try {
          const result = extractCommands(tree.rootNode, depth, cwds, env.homeDir);
          for (const f of result.findings) parts.push({ verdict: f.verdict, rule: f.rule, reason: f.reason });
          for (const name of result.functions.keys()) functions.add(name);
          counter.count += result.commands.length;
          if (result.findings.length) reads.only = false;
          if (depth === 0 && result.findings.length === 0 && result.commands.length === 1) plain.argv = plainArgv(result.commands[0]!);
          for (const cmd of result.commands) {
            evaluateSimple(cmd, env, parts);
            if (reads.only && notReadOnly(cmd, { workspaceRoot, homeDir: env.homeDir, cwds: cmd.cwds })) reads.only = false;
          }
          if (result.findings.some((f) => f.rule === 'ask:parse-error' || f.rule === 'ask:unknown-syntax') && depth > 0) {
            for (const f of textualDenyFindings(script)) parts.push({ verdict: f.verdict, rule: f.rule, reason: f.reason });
          }
        } finally {
          tree.delete();
        }
      },
    };
    return env;
  }
}

/** The words of a simple command with no assignment, redirection, expansion or glob; undefined otherwise. */
function plainArgv(cmd: SimpleCommand): string[] | undefined {
  if (cmd.assignments.length || cmd.redirects.length || cmd.argv.some((w) => w.dynamic || w.glob)) return undefined;
  return cmd.argv.map((w) => w.value);
}

function ask(rule: string, reason: string): Finding {
  return { verdict: 'ask', rule, reason };
}

function summarize(worst: PolicyDecision, parts: PolicyDecision[]): string {
  if (worst.verdict === 'allow') {
    return parts.length === 1 ? worst.reason : `All ${parts.length} parts of the command are allowed.`;
  }
  const label = worst.verdict === 'deny' ? 'Denied' : 'Needs approval';
  // The other parts with the same verdict are named, not counted: a model (or a user) fixing only the
  // first would meet the next refusal one step later.
  const others = [...new Set(parts.filter((p) => p.verdict === worst.verdict && p.reason !== worst.reason).map((p) => p.reason))];
  if (!others.length) return `${label}: ${worst.reason}`;
  const shown = others.slice(0, MORE_REASONS_SHOWN);
  const rest = others.length - shown.length;
  const also = `${shown.join('; ')}${rest ? `; and ${rest} more` : ''}`;
  return `${label}: ${worst.reason} (also ${worst.verdict === 'deny' ? 'denied' : 'needing approval'}: ${also})`;
}

/** How many further reasons a refusal names before it counts the rest. */
const MORE_REASONS_SHOWN = 3;
