export { FakeWorkspaceFs } from './fakeWorkspaceFs';
export { FakeDiffPreview } from './fakeDiffPreview';
export { FakeTaskRunner } from './fakeTaskRunner';
export { FakeNotifier } from './fakeNotifier';
export { ScriptedApprover } from './scriptedApprover';
export { fakeHost, type FakeHost } from './fakeHost';
export { fakeToolContext, settingsWith, testCommandsOver, type FakeToolContextOptions } from './fakeToolContext';
export { MemorySecretStore } from './memorySecretStore';
