export { FakeWorkspaceFs } from './fakeWorkspaceFs';
export { FakeDiffPreview } from './fakeDiffPreview';
export { FakeTaskRunner } from './fakeTaskRunner';
