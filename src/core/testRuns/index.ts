// Test runs: which command a project tests with (detection), the one-time offer to use it, and what
// a run's output says (runners/ per runner family, summaries for the model, the chat, the CLI and the history).
export { detectTestCommand, diskProbe, type DetectedTestCommand, type WorkspaceProbe } from './detection';
export {
  answerOf,
  rememberedAfterUse,
  shouldOfferTests,
  testCommandPlaces,
  testOfferButtons,
  type TestCommandPlace,
  type TestCommandPlaceChoice,
  type TestOfferAnswer,
} from './offer';
export { describeTestCommand, failingNames, formatTestSummary, outputPartlyShown, type TestCommandResult } from './summary';
export { summarizeTestOutput, type TestFailure, type TestSummary } from './runners';
export { failureExcerpt } from './excerpt';
export { COVERAGE_STEP, failingStep, stepAfterTests } from './failingStep';
export { judgesWholeTree, narrowedTestsPassed, narrowedVerdict } from './wholeTreeSteps';
export {
  directRunnerCommand,
  isNarrowed,
  narrowCommand,
  narrowingIgnored,
  runnerOfCommand,
  type CountedRun,
  type NarrowedCommand,
  type TestNarrowing,
} from './narrowing';
export { classifySteps, reportOf, stepWithFiles, reportPassed, unnamedComparedWithBaseline, verdictOf, type TestRunReport } from './report';
export { baselineNote } from './baselineNote';
export { mentionsTest, NAMING_RULE } from './mention';
export { failuresWorthRerun, rerunVerdict, type RerunVerdict } from './rerun';
export { classifyFailures, fileOfFailure, normalisedTestName, stableFailureKey, type FailureClasses } from './preExisting';
export { isTestFile, listedPaths, relatedTestFiles, type RelatedTestFiles, type TestFileSource } from './related';
export type { TestFramework } from './runners';
export { preparationOf, runnerOfChain, scriptChain, scriptOf, type ScriptLink } from './testScriptChain';
export { chainStopped } from './chainStop';
export { directWhenFilesFixed } from './fixedFiles';
export { runShown, type ShownRunRequest, type StreamingRunner } from './shownRun';
