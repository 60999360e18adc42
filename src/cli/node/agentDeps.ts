import type { ResolvedConfig } from '../../core/config';
import type { Approver, Notifier } from '../../core/ports';
import { wireAgent, type WiredAgent } from '../../core/session';
import type { AgentEvent } from '../../protocol/agentEvents';
import { NodeTaskRunner } from './nodeTaskRunner';

export interface AgentHostOptions {
  root: string;
  config: ResolvedConfig;
  approver: Approver;
  notifier: Notifier;
  onEvent(e: AgentEvent): void;
}

/** The CLI's wiring: the shared core wiring (core/session/wireAgent.ts) with the Node test runner. */
export function createAgentDeps(o: AgentHostOptions): Promise<WiredAgent> {
  return wireAgent({ ...o, tasks: ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard }) });
}
