export { NodeWorkspaceFs, toWorkspaceRelative } from './nodeWorkspaceFs';
export { exampleGoals } from './exampleGoals';
export { detectTestCommand, diskProbe, type DetectedTestCommand, type WorkspaceProbe } from './testDetection';
export { answerOf, shouldOfferTests, testOfferButtons, type TestOfferAnswer } from './testOffer';
