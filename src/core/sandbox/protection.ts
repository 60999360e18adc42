import type { SandboxStatus } from './probe';

/**
 * What is and is not protected, said once, plainly, to the user (the CLI at start, the extension in
 * the chat): without bubblewrap the policy still decides, but nothing confines what an allowed
 * command does; with it, whether unix sockets are blocked (the message of the probe). Kept next to
 * the probe so the words follow the mechanisms.
 */
export function describeProtection(status: SandboxStatus): string {
  if (status.available) return status.message;
  return [
    `${status.message}.`,
    'Still enforced: command rules (deny and ask lists), asking before running code the agent wrote or after any command changed files,',
    "file tools confined to the workspace, protected paths (a command's changes to them are undone and reported),",
    ".patchpilotignore for file tools, ignored files' content cut from command output, an allowlisted environment for commands,",
    'every process of a command killed when it ends, and SSRF-safe fetching.',
    'Not protected: an allowed command can read and write whatever your user can (outside the workspace, ~/.ssh), reach the network',
    'and local sockets (docker.sock, your session bus, ssh and gpg agents),',
    'and read ignored files in ways output redaction cannot see (encoded). Install bubblewrap (Linux) to confine commands.',
  ].join(' ');
}
