// A Host for tests, composed of the ports' fakes: an approver that refuses (ScriptedApprover), a
// notifier that keeps what it is told, the events kept, a scripted task runner, secrets in a map, and the workspace's
// real files (NodeWorkspaceFs, as the CLI). Any part can be replaced by the test.
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import type { Host } from '../../../src/core/ports';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { FakeNotifier } from './fakeNotifier';
import { FakeTaskRunner } from './fakeTaskRunner';
import { MemorySecretStore } from './memorySecretStore';
import { ScriptedApprover } from './scriptedApprover';

export interface FakeHost extends Host {
  /** Every event the agent sent, in order. */
  readonly events: AgentEvent[];
}

export function fakeHost(root: string, parts: Partial<Host> = {}): FakeHost {
  const events: AgentEvent[] = [];
  return {
    root,
    approver: new ScriptedApprover(),
    notifier: new FakeNotifier(),
    onEvent: (e) => void events.push(e),
    tasks: () => new FakeTaskRunner(),
    fs: (at) => new NodeWorkspaceFs(at),
    secrets: new MemorySecretStore(),
    ...parts,
    events,
  };
}
