import type { DetectedTestCommand } from './detection';

/** What the user answered to the offer of a detected test command, remembered per workspace. */
export type TestOfferAnswer = { answer: 'used' | 'never' } | { answer: 'not-now'; command: string };

/** The three buttons of the offer, in order; the first's name starts with "Use" (e.g. "Use npm test"). */
export function testOfferButtons(detected: DetectedTestCommand): [use: string, notNow: string, never: string] {
  return [`Use ${detected.command}`, 'Not Now', 'Never for This Workspace'];
}

/**
 * Whether to offer the detected command (test/unit/testRuns/offer.test.ts). Never in an
 * untrusted workspace (the command runs the workspace's own code), never over configured commands,
 * never again after "Use" or "Never"; after "Not Now" only when the project's command changed since.
 */
export function shouldOfferTests(input: {
  trusted: boolean;
  configured: readonly string[];
  remembered: TestOfferAnswer | undefined;
  detected: DetectedTestCommand | undefined;
}): boolean {
  const { trusted, configured, remembered, detected } = input;
  if (!trusted || !detected || configured.length > 0) return false;
  if (!remembered) return true;
  return remembered.answer === 'not-now' && remembered.command !== detected.command;
}

/** The answer to remember for a button pressed (undefined: the offer was dismissed, ask again next time). */
export function answerOf(detected: DetectedTestCommand, pick: string | undefined): TestOfferAnswer | undefined {
  const [use, notNow, never] = testOfferButtons(detected);
  if (pick === use) return { answer: 'used' };
  if (pick === never) return { answer: 'never' };
  if (pick === notNow) return { answer: 'not-now', command: detected.command };
  return undefined;
}

/** Where "Use <command>" keeps the choice: this window's memory, the workspace's settings file, or the user's settings. */
export type TestCommandPlace = 'window' | 'workspace' | 'user';

export interface TestCommandPlaceChoice {
  place: TestCommandPlace;
  label: string;
  /** Where it is written (or that nothing is), on the label's line. */
  description: string;
  /** What follows, in plain words (a workspace file is one the user may commit). */
  detail: string;
}

/** The places offered after "Use <command>", the one that writes nothing first; short enough for one quick-pick line each. */
export function testCommandPlaces(command: string, settingsFile: string): TestCommandPlaceChoice[] {
  return [
    { place: 'window', label: 'This Window Only', description: 'writes nothing', detail: `"${command}" until this window closes; the next window asks again.` },
    {
      place: 'workspace',
      label: 'This Workspace',
      description: `writes ${settingsFile}`,
      detail: 'A file in your repository: others get it if you commit it.',
    },
    {
      place: 'user',
      label: 'User Settings',
      description: 'writes your user settings',
      detail: `"${command}" in every workspace whose settings name no test command.`,
    },
  ];
}

/**
 * What to remember for this workspace after "Use" with a place. This window only remembers nothing:
 * the choice ends with the window, so the next window offers the command again.
 */
export function rememberedAfterUse(place: TestCommandPlace): TestOfferAnswer | undefined {
  return place === 'window' ? undefined : { answer: 'used' };
}
