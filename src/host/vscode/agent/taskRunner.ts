import type { TaskRunnerFactory } from '../../../core/session';
// The Node runner the CLI uses: own process group, the same environment allowlist and guard as
// run_command. ext-diff's task-terminal runner (VS Code Tasks, output captured) replaces this one line.
import { NodeTaskRunner } from '../../../cli/node/nodeTaskRunner';

export const createTaskRunner: TaskRunnerFactory = ({ envAllow, guard }) => new NodeTaskRunner({ envAllow, guard });
