import type { RuleView } from './agentEvents';

/**
 * One line about rules files that came into the prompt, the same for the chat and the CLI:
 * "Rules loaded: AGENTS.md, .cursor/rules/ts.mdc (globs src/**\/*.ts: src/a.ts) · listed for the model to read: .cursor/rules/db.mdc".
 */
export function describeRulesLoaded(rules: readonly RuleView[], initial: boolean): string {
  const loaded = rules.filter((r) => !r.listed).map((r) => (r.why === 'always' ? r.path : `${r.path} (${r.why})`));
  const listed = rules.filter((r) => r.listed).map((r) => r.path);
  const parts = [
    ...(loaded.length ? [`${initial ? 'Rules loaded' : 'More rules loaded'}: ${loaded.join(', ')}`] : []),
    ...(listed.length ? [`listed for the model to read when relevant: ${listed.join(', ')}`] : []),
  ];
  return parts.join(' · ');
}
