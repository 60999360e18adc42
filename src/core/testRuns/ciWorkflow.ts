/**
 * The test step of a project's CI workflow (.github/workflows/*.yml): the first `run:` command,
 * one line or a `run: |` block's line, that runs tests (a test runner, tox, nox, a package
 * manager's test script, `make test`). A line that needs the CI's own values (`${{ matrix.x }}`)
 * cannot run here and is passed over. YAML is read by lines: enough for `run:` keys.
 */
const TEST_LINE =
  /^(python3? -m (pytest|unittest|tox|nox)\b|pytest\b|tox\b|nox\b|(npm|pnpm|yarn|bun)( run)? test\b|npx (jest|vitest|mocha|tap)\b|make (test|check)\b|go test\b|cargo (test|nextest)\b)/;

export function ciTestCommand(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const value = m[2]!.trim();
    const commands = /^[|>][-+]?$/.test(value) ? blockLines(lines, i + 1, m[1]!.length) : [value.replace(/^(['"])(.*)\1$/, '$2')];
    const found = commands.map((c) => c.trim()).find((c) => TEST_LINE.test(c) && !c.includes('${{'));
    if (found) return found;
  }
  return undefined;
}

/** The lines of a block scalar: those indented deeper than its key. */
function blockLines(lines: readonly string[], from: number, keyIndent: number): string[] {
  const block: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.trim() && /^\s*/.exec(line)![0].length <= keyIndent) break;
    block.push(line);
  }
  return block;
}
