/**
 * Check commands after an edit (patchpilot.tests.checkCommands: `tsc --noEmit`, `ruff check .`): they
 * run under the test commands' rules (runGuardedTestCommand), and the model reads the lines of
 * their output that name the files it edited, or the output's head and tail when no line does.
 */
import { stripVTControlCharacters } from 'node:util';
import { cutOutput } from '../base/outputCut';
import { runGuardedTestCommand } from './runTests';
import type { ToolContext } from './types';

/** How much of one check command's output the model sees (the same budget as a failing test command). */
export const CHECK_OUTPUT_CHARS = 6000;

/** Every check command's report after an edit to `paths`; undefined when none is configured. */
export async function runCheckCommands(ctx: ToolContext, paths: readonly string[]): Promise<string | undefined> {
  const commands = ctx.workspace.settings.tests.checkCommands;
  if (commands.length === 0 || ctx.ask.planOnly) return undefined;
  const parts: string[] = [];
  for (const command of commands) {
    const run = await runGuardedTestCommand(ctx, command);
    parts.push(describeCheck(command, run.exitCode, run.timedOut, run.output, paths));
  }
  return `check commands after the edit:\n\n${parts.join('\n\n')}`;
}

/** One check command's result: its status and what its output says about the edited files. */
export function describeCheck(command: string, exitCode: number | null, timedOut: boolean, output: string, paths: readonly string[]): string {
  const status = timedOut ? 'timed out' : exitCode === null ? 'killed' : `exit ${exitCode}`;
  const text = stripVTControlCharacters(output).trimEnd();
  const named = linesNaming(text, paths);
  if (named.length > 0)
    return [
      `$ ${command}`,
      `${status}; lines naming the files you edited:`,
      cutOutput(named.join('\n'), CHECK_OUTPUT_CHARS, { shape: 'headTail', otherwise: `Run ${command} to see them all.` }).text,
    ].join('\n');
  if (exitCode === 0 && !timedOut) return `$ ${command}\n${status}; nothing about the files you edited`;
  return [
    `$ ${command}`,
    `${status}; no line names the files you edited, output:`,
    cutOutput(text, CHECK_OUTPUT_CHARS, { shape: 'headTail', otherwise: `Run ${command} to see it all.` }).text,
  ].join('\n');
}

/** The lines that mention one of the paths (as written, or with backslashes on Windows checkers). */
export function linesNaming(text: string, paths: readonly string[]): string[] {
  const needles = paths.flatMap((p) => [p, p.replace(/\//g, '\\')]);
  return text.split(/\r?\n/).filter((line) => needles.some((n) => line.includes(n)));
}
