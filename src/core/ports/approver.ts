// ---- Approval (agent tools). The host shows the request and answers; core never decides for the user.

/** A proposed patch, dry-run already: `preview.files[].hunks[]` carry ids (`${path}#${number}`, from 1), ranges and reasons. */
export interface PatchApprovalRequest {
  patchText: string;
  preview: import('../patch/types').ApplyResult;
  /** A recorded patch written again (the history's Apply Again): the review's decisions are that patch's. */
  patch?: import('./diffPreview').ReviewedPatchRef;
}

export interface PatchApprovalAnswer {
  /** Ids of the hunks the user accepts; empty rejects the patch. */
  acceptedHunks: string[];
  /** Optional words for the model ("use a Map instead"). */
  feedback?: string;
  /** Why the user rejected a hunk, by hunk id (from the diff review's "Reject hunk"); goes back to the model. */
  hunkReasons?: Readonly<Record<string, string>>;
  /**
   * The user edited the proposed content before accepting (VS Code: typed into the diff editor's
   * right-hand side): a unified diff from the current files to what the user wants written. When
   * set, this patch is applied instead of the accepted hunks, and the model is told so.
   */
  editedPatch?: string;
  /**
   * Nobody could be asked (a run without a terminal): why. The patch is refused for want of approval,
   * not by a person, and the model and the run's status are told so.
   */
  unattended?: string;
}

/** Anything but a patch that needs a yes or no: a command, an overwrite, a test command changed in this run. */
export interface ActionApprovalRequest {
  /** `mcp`: start an MCP server, accept its changed tools, or call one of its tools. `hook`: run a workspace's hook (src/core/hooks). */
  kind: 'command' | 'write' | 'tests' | 'fetch' | 'mcp' | 'hook';
  /** One line for the prompt, e.g. the command or the path. */
  title: string;
  /** Why it asks (the policy reason), shown under the title. */
  reason: string;
  /** Extra detail for the host to show (the new file content, the cwd). */
  detail?: string;
}

export interface ActionApprovalAnswer {
  approved: boolean;
  feedback?: string;
  /** Nobody could be asked: why (see PatchApprovalAnswer.unattended). */
  unattended?: string;
}

export interface Approver {
  approvePatch(request: PatchApprovalRequest, signal: AbortSignal): Promise<PatchApprovalAnswer>;
  approveAction(request: ActionApprovalRequest, signal: AbortSignal): Promise<ActionApprovalAnswer>;
}
