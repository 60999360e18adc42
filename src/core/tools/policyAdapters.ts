import path from 'node:path';
import { checkPath, compileGlobs, createIgnoreFilter, foldForMatch, type PathPolicySettings, type ProtectedGlob } from '../policy/path';
import type { IgnoreFilter } from '../policy/path/ignoreFilter';
import type { PatchPilotSettings } from '../config/settings';
import { probeSandbox, runCommand, describeProtectedChanges, type RunCommandOptions } from '../sandbox';
import { createSecretInodeCheck } from '../sandbox/secretInodes';
import type { CommandExecutor, PathPolicy } from '../ports';

/** The path policy (checkPath: confinement, denyPaths, .patchpilotignore, protected paths) as the tools' port. */
export function createPathPolicy(root: string, settings: PathPolicySettings, isIgnored: (rel: string, isDir?: boolean) => boolean): PathPolicy {
  const secretInode = createSecretInodeCheck(root, (rel, isDir) => isIgnored(rel, isDir));
  return {
    check: (p, access) => checkPath({ workspaceRoot: root, path: p === '' ? '.' : p, operation: access, settings, isIgnored, secretInode }),
  };
}

/** Commands through the sandboxed executor (bubblewrap when it works; network off). `envAllow`: patchpilot.policy.envAllow. */
export function createCommandExecutor(
  root: string,
  options: { sandbox?: 'auto' | 'off' | 'require'; maxOutputBytes?: number } & Pick<
    RunCommandOptions,
    'guard' | 'homeAllow' | 'readOnlyPaths' | 'envAllow' | 'allowUnixSockets'
  > = {},
): CommandExecutor {
  const sandboxed = options.sandbox !== 'off' && probeSandbox().available;
  return {
    sandboxed,
    async run({ command, cwd, signal, timeoutMs, stdin, onOutput }) {
      const r = await runCommand({
        command,
        cwd,
        workspaceRoot: root,
        signal,
        timeoutMs,
        ...(stdin !== undefined ? { stdin } : {}),
        sandbox: options.sandbox,
        maxOutputBytes: options.maxOutputBytes ?? 256 * 1024,
        guard: options.guard,
        homeAllow: options.homeAllow,
        readOnlyPaths: options.readOnlyPaths,
        envAllow: options.envAllow,
        allowUnixSockets: options.allowUnixSockets,
        ...(onOutput ? { onOutput: (chunk: string) => onOutput(chunk) } : {}),
      });
      const stderr = r.stderr.trimEnd();
      let output = stderr ? `${r.stdout}${r.stdout && !r.stdout.endsWith('\n') ? '\n' : ''}--- stderr ---\n${stderr}\n` : r.stdout;
      const guarded = describeProtectedChanges(r.protectedChanges);
      if (guarded) output = `${output}${output ? '\n' : ''}${guarded}\n`;
      return {
        exitCode: r.exitCode,
        protectedChanges: r.protectedChanges,
        output: r.sandboxed ? output : `${output}${output ? '\n' : ''}(${r.sandboxMessage ?? 'not sandboxed'})`,
        stdout: r.stdout,
        stderr: r.stderr,
        truncated: r.stdoutDroppedBytes + r.stderrDroppedBytes > 0,
        durationMs: r.durationMs,
        timedOut: r.timedOut,
        cancelled: r.cancelled,
      };
    },
  };
}

/**
 * `.patchpilotignore` and denyPaths as one predicate over workspace-relative POSIX paths, made per
 * call: one snapshot of the ignore file per walk (a command's guard, a history search), not a reload
 * per entry.
 */
export function ignoredNow(ignore: IgnoreFilter, denyPaths: readonly string[]): () => (rel: string, isDir: boolean) => boolean {
  const denied = compileGlobs(denyPaths);
  return () => {
    const byFile = ignore.snapshot();
    return (rel, isDir) => byFile(rel, isDir) || (denied?.ignores(foldForMatch(rel) + (isDir ? '/' : '')) ?? false);
  };
}

/**
 * What commands may not read (ignored, denyPaths) or change (protected paths), with the state folder
 * that PatchPilot writes during a command. The CLI and the VS Code task terminal use the same one.
 */
export function createCommandGuard(
  root: string,
  policy: PatchPilotSettings['policy'],
  historyPath: string,
  ignore: IgnoreFilter = createIgnoreFilter(root),
  /** Protected globs added at wiring time (the files MCP servers' launches name). */
  extraProtected: readonly ProtectedGlob[] = [],
): NonNullable<RunCommandOptions['guard']> {
  const stateRel = path.relative(root, path.dirname(path.resolve(root, historyPath)));
  return {
    ignored: ignoredNow(ignore, policy.denyPaths),
    protectedGlobs: [...policy.protectedPaths, ...extraProtected],
    stateDir: stateRel && !stateRel.startsWith('..') && !path.isAbsolute(stateRel) ? stateRel.split(path.sep).join('/') : undefined,
    stateFile: path.basename(historyPath),
  };
}
