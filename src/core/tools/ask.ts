/**
 * The one gate a tool asks through (ctx.ask): the policy's verdicts (paths, commands), the approval
 * mode and the approver sit behind it, so no tool reads the mode or calls the approver itself. Every
 * verdict and every answer goes to the audit trail (policy, approval-needed, approval-answered events),
 * and a refusal reaches the model as a ToolError worded by gate.ts.
 */
import { homedir } from 'node:os';
import type { ApprovalMode, PatchPilotSettings } from '../config/settings';
import type { IgnoreRules } from '../git/ignoreRules';
import type { ApplyResult } from '../patch/types';
import { allowedByUserRules } from '../policy/command/userAllowed';
import type { PolicyDecision } from '../policy/types';
import type { ActionApprovalRequest, Approver, CommandPolicy, PatchApprovalAnswer, PathPolicy } from '../ports';
import { requireApprovalWhenUnsandboxed } from '../sandbox/autoMode';
import { gateAction } from './gate';
import { createPathPolicy } from './policyAdapters';
import type { ToolEvent } from './types';

export interface ToolAsk {
  /** An action that needs a decision (a write, a test run, a fetch, an MCP call): goes ahead, or throws the refusal the model reads. */
  (request: ActionApprovalRequest, decision?: PolicyDecision, options?: { edit?: boolean }): Promise<{ feedback?: string }>;
  /**
   * A shell command in `cwd` (run_command): the command policy's verdict, and without a sandbox what the
   * mode or the user's rules would let run unasked asks. Absent where no command policy is (no commands here).
   */
  command?(input: { command: string; cwd: string; where: string; sandboxed: boolean }): Promise<{ readOnly: boolean; argv?: string[]; feedback?: string }>;
  /** The words of a plain simple command as the command policy parsed them (none for anything else): one parser for both. */
  words?(command: string): string[] | undefined;
  /** A patch's review: asked in ask mode or when the path policy asks for one of its paths, else accepted unasked. */
  patch(request: { patchText: string; preview: ApplyResult; title: string; hunks: string[]; policyAsks: boolean }): Promise<PatchAsked>;
  /** The path policy's verdicts (confinement, denyPaths, ignore rules, protected paths), asked of every path a tool touches. */
  readonly paths: PathPolicy;
  /** Plan mode: nothing is written or run (tools dry-run or refuse). */
  readonly planOnly: boolean;
  /** Edits go in without the user's review of each (auto, auto-edit): an unsandboxed test run of them asks. */
  readonly unreviewedEdits: boolean;
}

/** What became of a patch's review: accepted unasked, nobody could answer (and under which mode it asked), or the user's answer. */
export type PatchAsked = { unasked: true } | { unattended: string; mode: ApprovalMode } | { answer: PatchApprovalAnswer };

export interface ToolAskParts {
  root: string;
  settings: PatchPilotSettings;
  ignore: IgnoreRules;
  mode: ApprovalMode;
  approver: Approver;
  signal: AbortSignal;
  emit?(event: ToolEvent): void;
  /** The run's path policy; made from the settings and ignore rules when not given. */
  pathPolicy?: PathPolicy;
  commandPolicy?: CommandPolicy;
}

export function createToolAsk(parts: ToolAskParts): ToolAsk {
  const { mode, approver, signal, emit, commandPolicy } = parts;
  const gate = { mode, approver, signal, emit };
  const paths = parts.pathPolicy ?? createPathPolicy(parts.root, parts.settings.policy, (rel, isDir) => parts.ignore.agentFilter.isIgnored(rel, isDir));
  const ask = (request: ActionApprovalRequest, decision?: PolicyDecision, options?: { edit?: boolean }) => gateAction(gate, request, decision, options);
  return Object.assign(ask, {
    ...(commandPolicy
      ? {
          async command(input: { command: string; cwd: string; where: string; sandboxed: boolean }) {
            const checked = commandPolicy.check({ command: input.command, workspaceRoot: parts.root, cwd: input.cwd, homeDir: homedir() });
            let decision: PolicyDecision = checked;
            // Whatever lets it run unasked (auto mode, the user's allow rules): without a sandbox, workspace code still asks.
            if (mode === 'auto' || allowedByUserRules(decision)) decision = requireApprovalWhenUnsandboxed(decision, input.sandboxed);
            const request = { kind: 'command' as const, title: input.command, reason: decision.reason, detail: `in ${input.where}` };
            const { feedback } = await gateAction(gate, request, decision);
            return { readOnly: !!checked.readOnly, ...(checked.argv ? { argv: checked.argv } : {}), ...(feedback !== undefined ? { feedback } : {}) };
          },
          words: (command: string) => commandPolicy.check({ command, workspaceRoot: parts.root, cwd: parts.root, homeDir: homedir() }).argv,
        }
      : {}),
    async patch(request: { patchText: string; preview: ApplyResult; title: string; hunks: string[]; policyAsks: boolean }): Promise<PatchAsked> {
      if (mode !== 'ask' && !request.policyAsks) return { unasked: true };
      emit?.({ type: 'approval-needed', request: { kind: 'patch', title: request.title, hunks: request.hunks } });
      const answer = await approver.approvePatch({ patchText: request.patchText, preview: request.preview }, signal);
      if (answer.unattended === undefined) return { answer };
      emit?.({ type: 'approval-answered', kind: 'patch', approved: false, accepted: [], unattended: true, edit: true });
      return { unattended: answer.unattended, mode };
    },
    paths,
    planOnly: mode === 'plan',
    unreviewedEdits: mode === 'auto' || mode === 'auto-edit',
  });
}
