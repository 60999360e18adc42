// The chat banner's way out of a missing model setup (webview-ui/chat/setupActions.ts), for the
// reasons the host gives (src/host/vscode/config/hostConfig.ts): the first, primary button is the
// step the reason asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setupActions } from '../../../webview-ui/chat/setupActions';

// As src/host/vscode/config/hostConfig.ts says it with an endpoint set and no model.
const NO_MODEL = 'No model: the endpoint http://127.0.0.1:11434/v1 is set; choose one of its models with "Select Model" (or set patchpilot.llm.model).';
const labels = (reason: string) => setupActions(reason).map((a) => `${a.primary ? '*' : ''}${a.label}`);

test('an endpoint set but no model: Select Model (its models) comes first, not the provider list again', () => {
  assert.deepEqual(labels(NO_MODEL), ['*Select Model', 'Choose Provider', 'Use Demo Model', 'Open Settings']);
  assert.equal(setupActions(NO_MODEL)[0]!.what, 'model');
});

test('no endpoint, or no key: Choose Provider first, with the demo, the key and the settings', () => {
  const expected = ['*Choose Provider', 'Use Demo Model', 'Set API Key', 'Open Settings'];
  assert.deepEqual(
    labels('No model endpoint: run "PatchPilot: Select Model" to choose a provider (or "PatchPilot: Set Endpoint"), or try the built-in demo model first.'),
    expected,
  );
  assert.deepEqual(labels('No API key for OpenAI: run "PatchPilot: Set API Key" (a model server on this machine needs none).'), expected);
});

test('a reason about something else has no setup buttons', () => {
  assert.deepEqual(setupActions('A run is already working in this window.'), []);
});
