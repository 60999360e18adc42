export { NodeWorkspaceFs, toWorkspaceRelative } from './nodeWorkspaceFs';
