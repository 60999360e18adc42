/**
 * The way out of a chat banner that says what the model setup lacks. The host's reason is the
 * banner's text (src/host/vscode/config/hostConfig.ts); the buttons follow from it, so the first
 * (primary) one is the step that reason asks for: with an endpoint set but no model, "Select Model"
 * (the endpoint's own models), not the provider list again.
 */
export type SetupWhat = 'model' | 'provider' | 'demo' | 'apiKey' | 'settings';

export interface SetupAction {
  label: string;
  what: SetupWhat;
  primary: boolean;
}

const action = (label: string, what: SetupWhat, primary = false): SetupAction => ({ label, what, primary });

/** The banner's buttons for `reason`, the primary one first; none when the reason is not about the model setup. */
export function setupActions(reason: string): SetupAction[] {
  if (!/API key|model|endpoint/i.test(reason)) return [];
  // "No model: ..." comes only once an endpoint is set (no endpoint reads "No model endpoint: ...").
  if (/^No model:/.test(reason))
    return [
      action('Select Model', 'model', true),
      action('Choose Provider', 'provider'),
      action('Use Demo Model', 'demo'),
      action('Open Settings', 'settings'),
    ];
  return [action('Choose Provider', 'provider', true), action('Use Demo Model', 'demo'), action('Set API Key', 'apiKey'), action('Open Settings', 'settings')];
}
