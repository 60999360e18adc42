// Test runs: which command a project tests with (detection), the one-time offer to use it, and what
// a run's output says (summaries for the model, the chat, the CLI and the history).
export { detectTestCommand, diskProbe, type DetectedTestCommand, type WorkspaceProbe } from './detection';
export { answerOf, shouldOfferTests, testOfferButtons, type TestOfferAnswer } from './offer';
export { describeTestCommand, formatTestSummary, summarizeTestOutput, type TestCommandResult, type TestSummary } from './summary';
