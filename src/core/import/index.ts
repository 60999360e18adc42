export * from './importPlan';
export * from './mergeSettings';
export * from './preview';
export * from './settingsText';
export { planFromRoo } from './roo';
export { planFromCline } from './cline';
export { planFromContinue } from './continueConfig';
import { planFromCline } from './cline';
import { planFromContinue } from './continueConfig';
import type { ImportPlan, ImportSource } from './importPlan';
import { planFromRoo } from './roo';

/** The reader for a source: file name (for messages and the format) and its text -> the plan. */
export const PLANNERS: Readonly<Record<ImportSource, (file: string, text: string) => ImportPlan>> = {
  roo: planFromRoo,
  cline: planFromCline,
  continue: planFromContinue,
};
