/**
 * The concise progress a channel shows for a run: one short line per event worth a phone's
 * attention (a step, a patch, a test verdict, the end), nothing for streamed text or usage.
 */
import type { AgentEvent } from '../../protocol/agentEvents';

export function progressLine(e: AgentEvent): string | undefined {
  switch (e.type) {
    case 'step/started':
      return `step ${e.step}`;
    case 'tool/started':
      return e.name === 'finish' ? undefined : `  ${e.name}${toolTarget(e.args)}`;
    case 'patch/applied':
      return `patch applied: ${e.files.join(', ')} (${e.hunks.length} of ${e.total} hunks)`;
    case 'patch/refused':
      return `patch not applied: ${e.files.join(', ')}`;
    case 'test/finished':
      return `tests ${e.exitCode === 0 ? 'passed' : 'FAILED'}: ${e.command} (${Math.round(e.durationMs / 1000)} s)`;
    case 'model/retrying':
      return `model retrying (attempt ${e.attempt}): ${e.reason}`;
    case 'warning':
      return `warning: ${e.message}`;
    case 'run/finished':
      return `${e.status}: ${e.reason}${e.tests === 'failed' ? ' (tests failed after the last edit)' : ''}`;
    default:
      return undefined;
  }
}

/** The path or command a tool call is about, to tell the calls apart at a glance. */
function toolTarget(args: unknown): string {
  const a = args as { path?: unknown; command?: unknown; query?: unknown; url?: unknown } | undefined;
  const target = [a?.path, a?.command, a?.query, a?.url].find((v) => typeof v === 'string') as string | undefined;
  if (!target) return '';
  return ` ${target.length > 60 ? `${target.slice(0, 57)}...` : target}`;
}
