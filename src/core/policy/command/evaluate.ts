import type { PolicyDecision } from '../types';
import { baseName, DATA_ONLY, isPathQualified } from './commandClasses';
import { builtinDenyFindings, textualDenyFindings } from './deny';
import { dangerousEnvFindings } from './envVars';
import { clip } from './clip';
import { fileOptionFindings } from './fileOptions';
import { GLOB_SAFE, nonPathArgIndexes, VETTERS, type VetContext } from './flags';
import { gitView } from './git';
import { classifyReadTarget, classifyWriteTarget } from './paths';
import { localBinRule } from './localBins';
import { packageScriptRule } from './scriptShorthandRule';
import { ruleMatches, ruleNamesFlag, type CommandRule } from './rules';
import type { TestDefinitionGuard } from './testDefinitionGuard';
import type { Finding, SimpleCommand, Word } from './types';
import { unwrap } from './wrappers';

/** What evaluating one sub-command needs from the policy around it. */
export interface EvalEnv {
  workspaceRoot: string;
  homeDir: string;
  userRules: readonly CommandRule[];
  defaultRules: readonly CommandRule[];
  isIgnoredPath?: (absPath: string) => boolean;
  testGuard?: TestDefinitionGuard;
  functions: ReadonlySet<string>;
  /** Parse and evaluate a shell string found inside a command (`bash -c`, `eval`). */
  evaluateScript(script: string, depth: number, cwds: string[], parts: PolicyDecision[]): void;
}

const ask = (rule: string, reason: string): Finding => ({ verdict: 'ask', rule, reason });

/** Evaluates one simple command (and what it wraps) and appends one decision per command to `parts`. */
export function evaluateSimple(cmd: SimpleCommand, env: EvalEnv, parts: PolicyDecision[], appendsArgs = false): void {
  const vctx: VetContext = { workspaceRoot: env.workspaceRoot, homeDir: env.homeDir, isIgnoredPath: env.isIgnoredPath, cwds: cmd.cwds };
  const findings: Finding[] = [...dangerousEnvFindings(cmd.assignments.map((a) => a.name)), ...redirectFindings(cmd, vctx)];

  const name = cmd.argv[0];
  if (!name) {
    parts.push(decide(cmd, findings, undefined, 'allow:assignment-or-redirection', 'Only assignments or redirections.'));
    return;
  }
  if (name.dynamic || name.glob) {
    findings.push(ask('ask:dynamic-command-name', `The program name "${name.raw}" is known only at run time.`), ...textualDenyFindings(cmd.text));
    parts.push(decide(cmd, findings));
    return;
  }
  const n = name.value;
  if (n === '' || /[^\x21-\x7e]/.test(n)) {
    findings.push(
      ask('ask:suspicious-command-name', `The program name ${JSON.stringify(n)} contains spaces, control or non-ASCII characters (look-alike letters?).`),
    );
  }
  const args = cmd.argv.slice(1);
  findings.push(...builtinDenyFindings(n, args, { homeDir: env.homeDir, cwds: cmd.cwds }));
  const view = n === 'git' ? gitView(cmd.argv, vctx) : undefined;
  const matchArgv = view?.argv ?? cmd.argv;
  findings.push(...userRuleFindings(env.userRules, matchArgv, cmd.argv));

  const wrapped = unwrap(cmd.argv, cmd.redirects);
  if (wrapped) {
    evaluateWrapped(cmd, wrapped, findings, env, parts, appendsArgs);
    return;
  }

  findings.push(...programFindings(cmd, view, vctx));
  const innerParts: PolicyDecision[] = [];
  findExecInner(n, args, cmd, env, innerParts);
  findings.push(...argumentFindings(baseName(n), args, vctx, appendsArgs));
  findings.push(...inlineCodeFindings(baseName(n), args));
  const guarded = testGuardFinding(cmd, env);
  if (guarded) findings.push(guarded);
  if (env.functions.has(n)) {
    parts.push(decide(cmd, findings, undefined, 'allow:function-call', `Calls "${n}", a function defined in this command and checked there.`), ...innerParts);
    return;
  }
  const rule =
    [...env.userRules, ...env.defaultRules].find((r) => r.verdict === 'allow' && ruleMatches(r, matchArgv)) ??
    packageScriptRule(matchArgv, cmd.cwds) ??
    localBinRule(matchArgv, cmd.cwds, env.workspaceRoot);
  parts.push(decide(cmd, findings, rule), ...innerParts);
}

/** Files the command's redirections write or read. */
function redirectFindings(cmd: SimpleCommand, vctx: VetContext): Finding[] {
  const findings: Finding[] = [];
  for (const r of cmd.redirects) {
    if (r.kind === 'write') findings.push(...classifyWriteTarget(r.target, cmd.cwds, vctx, `Redirection ${r.operator}`));
    else if (r.kind === 'read' && r.target) {
      if (r.target.dynamic) findings.push(ask('ask:read-target-unknown', `Redirection reads "${r.target.raw}", known only at run time.`));
      else findings.push(...classifyReadTarget(r.target, cmd.cwds, vctx, `Redirection ${r.operator}`));
    }
  }
  return findings;
}

/** The user's ask and deny rules that match the command (as git sees it, or as written). */
function userRuleFindings(userRules: readonly CommandRule[], matchArgv: Word[], argv: Word[]): Finding[] {
  const findings: Finding[] = [];
  for (const rule of userRules) {
    if (rule.verdict === 'allow') continue;
    if (ruleMatches(rule, matchArgv) || ruleMatches(rule, argv)) {
      findings.push({ verdict: rule.verdict, rule: rule.name, reason: `Matches the ${rule.source} ${rule.verdict} rule "${rule.pattern}".` });
    }
  }
  return findings;
}

/** A wrapper (`env`, `sudo`, `bash -c`…): its own decision, then the command or script it runs, checked on its own. */
function evaluateWrapped(
  cmd: SimpleCommand,
  wrapped: NonNullable<ReturnType<typeof unwrap>>,
  findings: Finding[],
  env: EvalEnv,
  parts: PolicyDecision[],
  appendsArgs: boolean,
): void {
  const n = cmd.argv[0]!.value;
  findings.push(...wrapped.findings, ...dangerousEnvFindings(wrapped.envNames));
  if (isPathQualified(n)) findings.push(ask('ask:path-qualified-binary', `"${n}" is a path, not the system's ${baseName(n)}.`));
  const innerParts: PolicyDecision[] = [];
  if (wrapped.inner?.length) {
    evaluateSimple({ ...cmd, argv: wrapped.inner, assignments: [], redirects: [] }, env, innerParts, appendsArgs || !!wrapped.appendsArgs);
  }
  if (wrapped.script) {
    if (wrapped.script.dynamic) {
      findings.push(ask('ask:dynamic-script', `\`${wrapped.wrapper}\` runs a string known only at run time.`), ...textualDenyFindings(wrapped.script.raw));
    } else {
      env.evaluateScript(wrapped.script.value, cmd.depth + 1, cmd.cwds, innerParts);
    }
  }
  parts.push(
    decide(cmd, findings, undefined, `allow:wrapper-${baseName(wrapped.wrapper.split(' ')[0]!)}`, 'A wrapper whose command is checked on its own.'),
    ...innerParts,
  );
}

/** What the program itself is asked to do: a path-qualified program, git's view, its vetter, its file options. */
function programFindings(cmd: SimpleCommand, view: ReturnType<typeof gitView> | undefined, vctx: VetContext): Finding[] {
  const n = cmd.argv[0]!.value;
  const args = cmd.argv.slice(1);
  const findings: Finding[] = [];
  if (isPathQualified(n)) {
    findings.push(
      ask(
        'ask:path-qualified-binary',
        `"${n}" is a path to a program, which no allow rule covers (a bare name like "${baseName(n)}" means the system's program).`,
      ),
    );
  }
  if (view) findings.push(...view.findings);
  const vetName = n === 'python' || n === 'python3' ? (args[0]?.value === '-m' ? args[1]?.value : undefined) : baseName(n);
  const vetArgs = vetName && vetName !== baseName(n) ? args.slice(2) : args;
  if (vetName) findings.push(...(VETTERS[vetName]?.(vetArgs, vctx) ?? []));
  // Options that read or write files, for every program (date -f, sort --files0-from, git blame --contents).
  findings.push(...fileOptionFindings(view ? 'git' : (vetName ?? baseName(n)), view ? view.argv.slice(1) : vetArgs, vctx));
  return findings;
}

/** The test-definition guard's finding for the first working directory it objects in. */
function testGuardFinding(cmd: SimpleCommand, env: EvalEnv): Finding | undefined {
  const n = cmd.argv[0]!.value;
  if (!env.testGuard || isPathQualified(n)) return undefined;
  for (const cwd of cmd.cwds) {
    const f = env.testGuard.check(
      cmd.argv.map((w) => w.value),
      cwd,
    );
    if (f) return f;
  }
  return undefined;
}

/** Dynamic arguments, globs that could become options, paths outside the workspace or ignored. */
function argumentFindings(n: string, args: Word[], ctx: VetContext, appendsArgs: boolean): Finding[] {
  if (DATA_ONLY.has(n)) return [];
  const out: Finding[] = [];
  if (appendsArgs) out.push(ask('ask:xargs-arguments', `\`xargs ${n}\` receives arguments known only at run time.`));
  let afterDashDash = false;
  const notPaths = nonPathArgIndexes(n, args);
  for (const [i, a] of args.entries()) {
    if (a.value === '--' && !a.dynamic) {
      afterDashDash = true;
      continue;
    }
    if (a.dynamic) {
      out.push(ask('ask:dynamic-argument', `Argument "${clip(a.raw, 40)}" of ${n} is known only at run time.`));
      continue;
    }
    if (a.glob && !afterDashDash && !GLOB_SAFE.has(n)) {
      out.push(ask('ask:glob-argument', `Glob "${a.raw}" of ${n} could expand to a file named like an option.`));
    }
    let pathWord: Word | undefined = a;
    if (!afterDashDash && a.value.startsWith('-')) {
      const eq = a.value.indexOf('=');
      pathWord = eq > 0 ? { ...a, value: a.value.slice(eq + 1) } : undefined;
    }
    if (pathWord && pathWord.value !== '' && !notPaths.has(i)) out.push(...classifyReadTarget(pathWord, ctx.cwds, ctx, n));
  }
  return out;
}

const INLINE_CODE_FLAGS: Record<string, RegExp> = {
  node: /^(-e|--eval|-p|--print)$/,
  nodejs: /^(-e|--eval|-p|--print)$/,
  deno: /^eval$/,
  bun: /^(-e|--eval)$/,
  python: /^-[a-zA-Z]*c$/,
  python3: /^-[a-zA-Z]*c$/,
  perl: /^-[a-zA-Z]*[eE]$/,
  ruby: /^-[a-zA-Z]*e$/,
  php: /^-r$/,
};

/**
 * `node -e "...execSync('rm -rf ~')"`: code in a string is opaque to the shell parser, so deny
 * patterns are looked for in its text (the sandbox is what contains the rest).
 */
function inlineCodeFindings(n: string, args: Word[]): Finding[] {
  const flag = INLINE_CODE_FLAGS[n];
  if (!flag) return [];
  const out: Finding[] = [];
  args.forEach((a, i) => {
    const code = flag.test(a.value) ? args[i + 1] : a.value.startsWith('--eval=') ? { ...a, value: a.value.slice(7) } : undefined;
    if (code) out.push(...textualDenyFindings(code.value));
  });
  return out;
}

/** `find -exec rm -rf {} +`: the command find would run is checked for deny rules too. */
function findExecInner(n: string, args: Word[], cmd: SimpleCommand, env: EvalEnv, parts: PolicyDecision[]): void {
  if (baseName(n) !== 'find') return;
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.value)) continue;
    const end = args.findIndex((a, j) => j > i && (a.value === ';' || a.value === '+'));
    const inner = args.slice(i + 1, end < 0 ? undefined : end).map((w) => (w.value.includes('{}') ? { ...w, dynamic: true } : w));
    if (inner.length) evaluateSimple({ ...cmd, argv: inner, assignments: [], redirects: [] }, env, parts);
  }
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

function decide(cmd: SimpleCommand, findings: Finding[], rule?: CommandRule, fallbackRule?: string, fallbackReason?: string): PolicyDecision {
  const text = clip(cmd.text, 120);
  // A user's allow rule that spells out a flag ("sed -i *") permits that flag's ask, nothing stronger.
  const effective = rule ? findings.filter((f) => !(f.verdict === 'ask' && f.flag && ruleNamesFlag(rule, f.flag))) : findings;
  let worst: Finding | undefined;
  for (const f of effective) if (!worst || RANK[f.verdict] > RANK[worst.verdict]) worst = f;
  if (worst) {
    const more = effective.filter((f) => f !== worst && f.verdict === worst!.verdict).length;
    return { verdict: worst.verdict, rule: worst.rule, reason: `\`${text}\`: ${worst.reason}${more ? ` (and ${more} more)` : ''}` };
  }
  if (rule) return { verdict: 'allow', rule: rule.name, reason: `\`${text}\` matches the ${rule.source} allow rule "${rule.pattern}".` };
  if (fallbackRule) return { verdict: 'allow', rule: fallbackRule, reason: `\`${text}\`: ${fallbackReason}` };
  const name = cmd.argv[0]?.value ?? '';
  return {
    verdict: 'ask',
    rule: 'ask:not-allowlisted',
    reason: `\`${text}\`: no allow rule covers "${clip(name, 40)}"${cmd.argv.length > 1 ? ' with these arguments' : ''}.`,
  };
}
