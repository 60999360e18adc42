import type { Node } from 'web-tree-sitter';
import { clip } from './clip';
import { baseName, DOWNLOADERS, INTERPRETERS } from './commandClasses';
import type { Finding, Word } from './types';
import { evaluateWord } from './words';

/**
 * Downloaded text run as code: a downloader piped into an interpreter, or a download inside a
 * substitution an interpreter or the command name runs. Both are denied.
 */

/** `curl x | sh`, `wget -O- x | python`: whatever was downloaded would run as code. */
export function checkDownloadIntoInterpreter(node: Node, findings: Finding[]): void {
  let sawDownloader = false;
  for (const el of node.namedChildren) {
    const name = el ? effectiveName(el) : undefined;
    if (!name) continue;
    if (DOWNLOADERS.has(name)) sawDownloader = true;
    else if (sawDownloader && INTERPRETERS.has(name)) {
      findings.push({
        verdict: 'deny',
        rule: 'deny:download-into-interpreter',
        reason: `Output of a download is piped into "${name}", which would run it as code.`,
      });
      return;
    }
  }
}

/** `bash <(curl x)`, `sh -c "$(wget -O- x)"`, `eval "$(curl x)"`, `$(curl x)`: downloaded text run as code. */
export function checkDownloadAsCode(node: Node, argv: Word[], findings: Finding[]): void {
  const nameNode = node.childForFieldName('name');
  const name = argv[0];
  const runsArgs = name && !name.dynamic && INTERPRETERS.has(baseName(name.value));
  const scope = runsArgs ? [node] : nameNode ? [nameNode] : [];
  for (const n of scope) {
    // Every command below the name, or below an interpreter's arguments, sits in a substitution.
    // The walk is bounded and skips long names, so hostile nesting stays cheap.
    const found = findDownloader(n, 2000);
    if (found === 'budget') {
      if (!findings.some((f) => f.rule === 'ask:too-complex')) {
        findings.push({ verdict: 'ask', rule: 'ask:too-complex', reason: 'The command is too large to follow every substitution.' });
      }
      return;
    }
    if (found) {
      findings.push({
        verdict: 'deny',
        rule: 'deny:download-into-interpreter',
        reason: `"${clip(node.text)}" runs downloaded text as code.`,
      });
      return;
    }
  }
}

/** Bounded walk: is a downloader run somewhere below `root`? 'budget' when too large to tell. */
function findDownloader(root: Node, budget: number): boolean | 'budget' {
  // A command node below a command (or below its name) can only sit inside a substitution.
  const stack: Node[] = [root];
  while (stack.length) {
    if (--budget < 0) return 'budget';
    const n = stack.pop()!;
    if (n.type === 'command' && n !== root) {
      const cn = n.childForFieldName('name');
      if (cn && cn.endIndex - cn.startIndex <= 64 && DOWNLOADERS.has(baseName(evaluateWord(cn).value))) return true;
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return false;
}

const PASS_THROUGH = new Set(['sudo', 'doas', 'env', 'command', 'builtin', 'exec', 'nice', 'nohup', 'time', 'timeout', 'stdbuf', 'xargs']);

/** Program name of a pipeline element, looking through wrappers like `sudo` and `env`. */
function effectiveName(el: Node): string | undefined {
  let cmd: Node | null = el;
  while (cmd && cmd.type !== 'command') {
    if (cmd.type === 'redirected_statement') cmd = cmd.childForFieldName('body');
    else if (cmd.type === 'negated_command') cmd = cmd.namedChildren[0] ?? null;
    else return undefined;
  }
  if (!cmd) return undefined;
  const words = cmd.namedChildren.filter((c) => c && c.type !== 'variable_assignment' && !c.type.endsWith('redirect'));
  for (const w of words) {
    const v = baseName(evaluateWord(w!).value);
    if (v.startsWith('-') || /^\d+[smhd]?$/.test(v) || v.includes('=')) continue;
    if (!PASS_THROUGH.has(v)) return v;
  }
  return undefined;
}
