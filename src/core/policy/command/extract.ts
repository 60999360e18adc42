import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { arithmeticFindings } from './arithmetic';
import { clip } from './clip';
import { checkDownloadAsCode, checkDownloadIntoInterpreter } from './downloadAsCode';
import type { Finding, Redirect, SimpleCommand, Word } from './types';
import { evaluateWord } from './words';

/** Node types whose children we understand; anything else in a tree means "we do not know": ask. */
const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'if_statement',
  'elif_clause',
  'else_clause',
  'for_statement',
  'c_style_for_statement',
  'while_statement',
  'do_group',
  'case_statement',
  'case_item',
  'negated_command',
  'test_command',
  'command_substitution',
  'process_substitution',
  'heredoc_body',
  'concatenation',
  'string',
  'translated_string',
  'expansion',
  'simple_expansion',
  'arithmetic_expansion',
  'subscript',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'array',
  'brace_expression',
  'command_name',
  'variable_assignments',
]);
const LEAVES = new Set([
  'word',
  'raw_string',
  'ansi_c_string',
  'string_content',
  'number',
  'variable_name',
  'special_variable_name',
  'test_operator',
  'regex',
  'extglob_pattern',
  'file_descriptor',
  'heredoc_start',
  'heredoc_end',
  'heredoc_content',
  'comment',
]);

export interface ExtractResult {
  commands: SimpleCommand[];
  findings: Finding[];
  functions: Map<string, Node>;
}

interface Ctx {
  out: ExtractResult;
  depth: number;
  /** Every directory a later command may run in (cd inside a branch may or may not have run). */
  cwds: string[];
  homeDir: string;
  /** Current syntax-tree nesting, bounded so hostile nesting cannot exhaust the stack. */
  nesting: number;
}

const MAX_NESTING = 250;

const ask = (rule: string, reason: string): Finding => ({ verdict: 'ask', rule, reason });

export function extractCommands(root: Node, depth: number, cwds: string[], homeDir: string): ExtractResult {
  const ctx: Ctx = { out: { commands: [], findings: [], functions: new Map() }, depth, cwds: [...cwds], homeDir, nesting: 0 };
  visit(root, ctx);
  return ctx.out;
}

function visit(node: Node, ctx: Ctx): void {
  if (ctx.nesting >= MAX_NESTING) {
    if (!ctx.out.findings.some((f) => f.rule === 'ask:too-deep')) {
      ctx.out.findings.push(ask('ask:too-deep', `The command nests more than ${MAX_NESTING} levels deep; the rest was not examined.`));
    }
    return;
  }
  ctx.nesting++;
  try {
    visitNode(node, ctx);
  } finally {
    ctx.nesting--;
  }
}

function visitNode(node: Node, ctx: Ctx): void {
  if (node.isError || node.type === 'ERROR') {
    ctx.out.findings.push(ask('ask:parse-error', `The command could not be parsed near "${clip(node.text)}".`));
  } else if (node.isMissing) {
    ctx.out.findings.push(ask('ask:parse-error', `The command is incomplete: "${node.type}" is missing.`));
    return;
  }
  if (!node.isNamed) return;
  ctx.out.findings.push(...arithmeticFindings(node, clip));
  switch (node.type) {
    case 'command':
      return visitCommand(node, [], ctx);
    case 'redirected_statement':
      return visitRedirected(node, ctx);
    case 'function_definition': {
      const name = node.childForFieldName('name');
      if (name) ctx.out.functions.set(evaluateWord(name).value, node);
      checkSelfCallingFunction(node, ctx);
      for (const c of node.namedChildren) if (c && c !== name && c.type !== 'word') visit(c, ctx);
      return;
    }
    case 'pipeline':
      checkDownloadIntoInterpreter(node, ctx.out.findings);
      break;
    case 'variable_assignment':
    case 'declaration_command':
    case 'unset_command':
      return visitAssignmentStatement(node, ctx);
    case 'expansion':
      checkExpansionOperator(node, ctx);
      break;
    case 'arithmetic_expansion':
    case 'compound_statement':
      if (node.type === 'arithmetic_expansion' || node.text.startsWith('((')) checkArithmetic(node, ctx);
      break;
    case 'test_command':
      checkArithmetic(node, ctx);
      break;
    case 'heredoc_redirect':
    case 'herestring_redirect':
    case 'file_redirect':
      // A redirect with no command (e.g. inside a compound we flattened): check it on its own.
      ctx.out.commands.push(mkCommand(node, [], [], collectRedirects(node), ctx));
      visitRedirectContents(node, ctx);
      return;
  }
  if (!CONTAINERS.has(node.type) && !LEAVES.has(node.type)) {
    ctx.out.findings.push(ask('ask:unknown-syntax', `Unsupported shell syntax "${node.type}": "${clip(node.text)}".`));
  }
  for (const c of node.children) if (c) visit(c, ctx);
}

function visitRedirected(node: Node, ctx: Ctx): void {
  const body = node.childForFieldName('body');
  const redirects: Redirect[] = [];
  for (const c of node.namedChildren) {
    if (!c || c === body) continue;
    redirects.push(...collectRedirects(c));
    visitRedirectContents(c, ctx);
  }
  if (body?.type === 'command') return visitCommand(body, redirects, ctx);
  // Redirects on a compound (`{ ...; } > f`, `while ...; done < f`) apply to all of it.
  if (redirects.length) ctx.out.commands.push(mkCommand(node, [], [], redirects, ctx));
  if (body) visit(body, ctx);
}

function visitCommand(node: Node, outerRedirects: Redirect[], ctx: Ctx): void {
  const argv: Word[] = [];
  const assignments: SimpleCommand['assignments'] = [];
  const redirects = [...outerRedirects];
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'variable_assignment') {
      assignments.push(readAssignment(c));
      visitChildren(c, ctx);
    } else if (c.type.endsWith('redirect')) {
      redirects.push(...collectRedirects(c));
      visitRedirectContents(c, ctx);
    } else {
      argv.push(evaluateWord(c));
      visit(c, ctx);
    }
  }
  const cmd = mkCommand(node, argv, assignments, redirects, ctx);
  checkDownloadAsCode(node, argv, ctx.out.findings);
  ctx.out.commands.push(cmd);
  trackDirectoryChange(cmd, ctx);
}

/** Substitutions inside redirect targets and heredoc bodies, without re-counting nested redirects. */
function visitRedirectContents(node: Node, ctx: Ctx): void {
  for (const c of node.children) {
    if (!c) continue;
    if (c.type.endsWith('redirect')) visitRedirectContents(c, ctx);
    else visit(c, ctx);
  }
}

function visitChildren(node: Node, ctx: Ctx): void {
  for (const c of node.children) if (c) visit(c, ctx);
}

/** `x=1`, `export A=b`, `local x`, `unset y`: checked like a command named after the keyword. */
function visitAssignmentStatement(node: Node, ctx: Ctx): void {
  const assignments: SimpleCommand['assignments'] = [];
  const argv: Word[] = [];
  if (node.type !== 'variable_assignment') argv.push({ value: node.children[0]?.text ?? '', dynamic: false, glob: false, raw: '' });
  const items = node.type === 'variable_assignment' ? [node] : node.namedChildren;
  for (const c of items) {
    if (!c) continue;
    if (c.type === 'variable_assignment') assignments.push(readAssignment(c));
    else argv.push(evaluateWord(c));
    // `declare 'a[$(id)]=1'`: the word itself is checked here, its children below.
    if (c !== node) ctx.out.findings.push(...arithmeticFindings(c, clip));
    visitChildren(c, ctx);
  }
  ctx.out.commands.push(mkCommand(node, argv, assignments, [], ctx));
}

function readAssignment(node: Node): { name: string; value?: Word } {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  return { name: name?.text ?? '', value: value ? evaluateWord(value) : undefined };
}

export function collectRedirects(node: Node): Redirect[] {
  if (node.type === 'heredoc_redirect') {
    const out: Redirect[] = [];
    const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
    const start = node.namedChildren.find((c) => c?.type === 'heredoc_start');
    const quoted = /['"\\]/.test(start?.text ?? '');
    out.push({
      kind: 'heredoc',
      operator: '<<',
      body: { value: body?.text ?? '', dynamic: !quoted && /[$`]/.test(body?.text ?? ''), glob: false, raw: body?.text ?? '' },
    });
    for (const c of node.namedChildren) if (c && c.type.endsWith('redirect')) out.push(...collectRedirects(c));
    return out;
  }
  if (node.type === 'herestring_redirect') {
    const value = node.namedChildren.find((c) => c && c.type !== 'file_descriptor');
    return [{ kind: 'herestring', operator: '<<<', body: value ? evaluateWord(value) : undefined }];
  }
  if (node.type !== 'file_redirect') return [];
  const dest = node.childForFieldName('destination');
  const op = node.children.find((c) => c && !c.isNamed)?.text ?? '';
  const target = dest ? evaluateWord(dest) : undefined;
  return [{ kind: classifyOperator(op, target), operator: op, target }];
}

function classifyOperator(op: string, target: Word | undefined): Redirect['kind'] {
  if (op === '<' || op === '<&' || op === '<&-') return op === '<' ? 'read' : 'dup';
  // `>&2`, `2>&1`, `>&-` duplicate or close descriptors; `>& file` is `&> file`.
  if ((op === '>&' || op === '<&' || op === '>&-') && (!target || /^(\d+-?|-)$/.test(target.value))) return 'dup';
  return 'write';
}

function mkCommand(node: Node, argv: Word[], assignments: SimpleCommand['assignments'], redirects: Redirect[], ctx: Ctx): SimpleCommand {
  return { argv, assignments, redirects, text: node.text, depth: ctx.depth, cwds: [...ctx.cwds] };
}

/** cd/pushd change where later relative paths point: remember every directory we may now be in. */
function trackDirectoryChange(cmd: SimpleCommand, ctx: Ctx): void {
  const name = cmd.argv[0]?.value;
  if (name !== 'cd' && name !== 'pushd') return;
  const target = cmd.argv.slice(1).find((w) => !w.value.startsWith('-') || w.value === '-');
  let next: string[];
  if (!target) next = [ctx.homeDir];
  else if (target.dynamic || target.glob || target.value === '-')
    return; // the cd itself asks
  else {
    const t = target.value.replace(/^~(?=\/|$)/, ctx.homeDir);
    next = ctx.cwds.map((c) => path.resolve(c, t));
  }
  for (const n of next) if (!ctx.cwds.includes(n)) ctx.cwds.push(n);
}

/** `:(){ :|:& };:` and every renaming of it: a function that calls itself in a pipe or background. Any other function asks. */
function checkSelfCallingFunction(fn: Node, ctx: Ctx): void {
  const name = fn.childForFieldName('name')?.text ?? '';
  const body = fn.childForFieldName('body');
  if (!name || !body) {
    ctx.out.findings.push(ask('ask:function-definition', `The command defines a function "${clip(fn.text)}".`));
    return;
  }
  const calls = body.descendantsOfType('command').filter((c) => c && c.childForFieldName('name')?.text === name);
  if (calls.length === 0) {
    // A function can still recurse through another one (`f(){ g; }; g(){ f|f& }`), and its body runs
    // wherever it is called: not worth following for an agent's one-liner.
    ctx.out.findings.push(ask('ask:function-definition', `The command defines a function "${name}"; functions can recurse or fork without showing it.`));
    return;
  }
  const forks = body.descendantsOfType('pipeline').length > 0 || /&\s*(\}|;|$)/.test(body.text) || calls.length > 1;
  ctx.out.findings.push(
    forks
      ? { verdict: 'deny', rule: 'deny:fork-bomb', reason: `Function "${name}" calls itself in a pipe or in the background: a fork bomb.` }
      : ask('ask:recursive-function', `Function "${name}" calls itself.`),
  );
}

/** `${x@P}` runs the prompt expander on a value we cannot see, which can execute `$(...)`. */
function checkExpansionOperator(node: Node, ctx: Ctx): void {
  const ops = node.children.filter((c) => c && !c.isNamed).map((c) => c!.text);
  const at = ops.indexOf('@');
  if (at >= 0 && ops.slice(at + 1).some((o) => /^[PEAKa]$/.test(o))) {
    ctx.out.findings.push(ask('ask:prompt-expansion', `"${clip(node.text)}" expands a value with a transformation that can run commands.`));
  } else if (/^\$\{!/.test(node.text)) {
    ctx.out.findings.push(ask('ask:indirect-expansion', `"${clip(node.text)}" is an indirect expansion.`));
  }
}

/** Arithmetic on a variable evaluates its value, and `a[$(cmd)]` in that value runs cmd. */
function checkArithmetic(node: Node, ctx: Ctx): void {
  if (node.type === 'test_command' && !/\s-(eq|ne|lt|le|gt|ge)\s/.test(node.text)) return;
  const vars = node.descendantsOfType(['variable_name', 'simple_expansion', 'expansion']);
  if (vars.length > 0) {
    ctx.out.findings.push(
      ask('ask:arithmetic-on-variable', `"${clip(node.text)}" evaluates a variable arithmetically, which can run code hidden in its value.`),
    );
  }
}
