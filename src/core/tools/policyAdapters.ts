import { checkPath, type PathPolicySettings } from '../policy/path';
import { probeSandbox, runCommand } from '../policy/exec';
import type { CommandExecutor, PathPolicy } from './types';

/** The path policy (checkPath: confinement, denyPaths, .patchpilotignore, protected paths) as the tools' port. */
export function createPathPolicy(root: string, settings: PathPolicySettings, isIgnored: (rel: string, isDir?: boolean) => boolean): PathPolicy {
  return {
    check: (p, access) => checkPath({ workspaceRoot: root, path: p === '' ? '.' : p, operation: access, settings, isIgnored }),
  };
}

/** Commands through the sandboxed executor (bubblewrap when it works; network off). `envAllow`: patchpilot.policy.envAllow. */
export function createCommandExecutor(
  root: string,
  options: { sandbox?: 'auto' | 'off' | 'require'; maxOutputBytes?: number; envAllow?: readonly string[] } = {},
): CommandExecutor {
  const sandboxed = options.sandbox !== 'off' && probeSandbox().available;
  return {
    sandboxed,
    async run({ command, cwd, signal, timeoutMs }) {
      const r = await runCommand({ command, cwd, workspaceRoot: root, signal, timeoutMs, sandbox: options.sandbox, envAllow: options.envAllow, maxOutputBytes: options.maxOutputBytes ?? 256 * 1024 });
      const stderr = r.stderr.trimEnd();
      const output = stderr ? `${r.stdout}${r.stdout && !r.stdout.endsWith('\n') ? '\n' : ''}--- stderr ---\n${stderr}\n` : r.stdout;
      return {
        exitCode: r.exitCode,
        output: r.sandboxed ? output : `${output}${output ? '\n' : ''}(${r.sandboxMessage ?? 'not sandboxed'})`,
        truncated: r.stdoutDroppedBytes + r.stderrDroppedBytes > 0,
        durationMs: r.durationMs,
        timedOut: r.timedOut,
        cancelled: r.cancelled,
      };
    },
  };
}
