export { NodeWorkspaceFs, toWorkspaceRelative } from './nodeWorkspaceFs';
export { exampleGoals } from './exampleGoals';
