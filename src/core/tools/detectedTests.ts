import type { DetectedTestCommand } from '../testRuns';
import type { ToolContext } from './types';

/**
 * The project's own test command, detected (testRuns/detection.ts) but not configured: in VS Code,
 * the offer "Use npm test" the user has not answered yet. `keep`: how the user keeps it (the offer, the setting).
 */
export interface UnansweredTestCommand extends Pick<DetectedTestCommand, 'command' | 'source'> {
  keep: string;
}

/**
 * run_tests with no configured test command runs the detected one, so the model's explicit request
 * is answered by a real run instead of "no test commands are configured" while the model claims a
 * pass. Only run_tests: the after-edit and baseline runs stay off until the user answers the offer.
 * Where a command would ask (not sandboxed, or a mode that asks before commands) the user is asked
 * first, like run_command; the configured commands' own guards still apply when it runs (runTests.ts).
 * Undefined when nothing was detected; a refusal throws like any declined action.
 */
export async function approveDetectedTestCommand(ctx: ToolContext): Promise<{ command: string; note: string } | undefined> {
  const detected = ctx.run.detectedTests?.();
  if (!detected) return undefined;
  const { command, source } = detected;
  const reason = `no test command is configured; "${command}" was detected from ${source}`;
  const unsandboxed = ctx.run.tests.sandboxed !== true;
  const decision = unsandboxed
    ? {
        verdict: 'ask' as const,
        rule: 'ask:detected-test-command',
        reason: `${reason}, and commands are not sandboxed here: it runs the workspace's code with your rights`,
      }
    : undefined;
  await ctx.ask({ kind: 'tests', title: `Run the detected test command "${command}"?`, reason }, decision);
  const note =
    `(ran the detected test command "${command}" from ${source}: no test command is configured, and the after-edit runs stay off ` +
    `until one is; to keep it: ${detected.keep})`;
  return { command, note };
}
