/**
 * The chat webview: a transcript, the approvals that wait, a message box, Send / Stop / New Chat.
 * It keeps nothing the host does not have: on load it paints its saved state at once, then asks the
 * host for the snapshot (`chat/ready`); the host re-sends one whenever the view becomes visible.
 */
import './styles.css';
import './controls.css';
import type { ChatEntry, ChatSnapshot, ChatStatus } from '../../src/protocol/chat';
import { banner, button, el, messageBox, setEnabled } from '../shared/components';
import { ApprovalCards } from './approvals';
import { ChatHomeView } from './home';
import { CommandSuggest } from './commandSuggest';
import { HostClient } from './client';
import { Transcript } from './transcript';
import { RestoreControls } from '../shared/restorePreview';
import { setupActions } from './setupActions';
import { WorkingIndicator } from './workingIndicator';

interface SavedState {
  snapshot?: ChatSnapshot;
  draft?: string;
  /** Reasons typed into review cards, by approval id. */
  reasons?: Record<string, string>;
  /** Tool calls the reader opened, by call id. */
  openCalls?: string[];
  /** Where the reader was in the conversation: following its end, or at a place above. */
  scroll?: { top: number; atEnd: boolean };
}

let snapshot: ChatSnapshot = { chatId: '', entries: [], approvals: [], status: { running: false, trusted: true } };

const client = new HostClient();

const app = document.getElementById('app')!;
const header = el('header', 'pp-header');
const modelLabel = el('span', 'pp-model');
// Provider, endpoint, key and model in one flow (the host's Select Model), from the chat too.
const chooseProvider = button({
  label: 'Provider',
  name: 'Choose Provider',
  title: 'Choose the provider, endpoint, key and model',
  icon: 'server-environment',
  variant: 'secondary',
  onClick: () => void client.request('config/open', { what: 'provider' }),
});
// New Chat is the view's title button (+), as in VS Code's own chat: one control, not two.
header.append(modelLabel, chooseProvider);
const bannerSlot = el('div', 'pp-banner-slot');
const log = el('div', 'pp-transcript');
log.setAttribute('role', 'log');
log.setAttribute('aria-label', 'Conversation');
const approvals = el('div', 'pp-approvals');
const composer = el('div', 'pp-composer');
const input = messageBox({
  name: 'Message PatchPilot',
  placeholder: 'Ask PatchPilot to fix, explain or change something (Enter sends, Shift+Enter for a new line)',
  onSubmit: () => void sendMessage(),
});
const send = button({ label: 'Send', icon: 'send', onClick: () => void sendMessage() });
const stop = button({ label: 'Stop', icon: 'debug-stop', variant: 'secondary', onClick: () => void stopRun() });
const row = el('div', 'pp-actions');
row.append(send, stop);
// `/` suggests the MCP servers' prompts; it takes Enter before the message box does (capture on the composer).
const suggest = new CommandSuggest(input, composer);
composer.append(suggest.root, input, row);
// Said out loud, whatever has the focus: an approval waiting, a run starting or ending.
const announcer = el('div', 'pp-sr-only');
announcer.setAttribute('role', 'status');
const homeSlot = el('div', 'pp-home');
// While a run works: what it does and for how long (a live region of its own).
const working = new WorkingIndicator();
// Only the conversation scrolls, and a card waiting for an answer is part of it: at its end, under the
// model's explanation of what it asks, so both are read together. The header, the working line and
// the message box with Send and Stop stay in view at any height.
const scroller = el('div', 'pp-scroll');
scroller.append(homeSlot, log, approvals);
app.append(header, bannerSlot, scroller, working.root, composer, announcer);
const home = new ChatHomeView(
  homeSlot,
  client,
  (goal) => void sendText(goal),
  (reason) => showBanner(reason, 'warning'),
);

const saved = client.api.getState() as SavedState | undefined;
const restores = new RestoreControls({
  preview: (r) => client.request('restore/preview', r),
  diff: (r, path) => client.request('restore/diff', { ...r, path }),
  apply: (r, restoreRest) => client.request('restore/apply', { ...r, restoreRest }),
});
// The view is rebuilt each time it is shown: what the reader opened and where they were come back.
const transcript = new Transcript(
  log,
  (href) => void client.request('link/open', { url: href }),
  new Set(saved?.openCalls),
  () => save(),
  {
    retry: (goal) => void sendText(goal),
    openSettings: () => void client.request('config/open', { what: 'settings' }),
    undoPatch: (key) => client.request('patch/undo', { key }),
    revertPatch: (runId, patchId) => client.request('patch/revert', { runId, patchId }),
    showTestOutput: (command) => void client.request('tests/showOutput', { command }),
    restores,
  },
);
// A window reload opens at the conversation's end (the host says so); a view shown again keeps where the reader was.
let scroll = document.body.dataset.openAtEnd === 'true' ? { top: 0, atEnd: true } : (saved?.scroll ?? { top: 0, atEnd: true });
let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** What the status region says now, and whether it is a question waiting for the user. */
let announcing: 'waiting' | 'news' | undefined;
/** Set while the view shows a waiting card with the message that asks; the reader scrolling ends it. */
let questionShown = false;
scroller.addEventListener(
  'scroll',
  () => {
    // On the start page "at the end" stays true: the first message that replaces it is followed.
    scroll = { top: scroller.scrollTop, atEnd: home.visible || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 40 };
    saveSoon();
  },
  { passive: true },
);
/** A reader following the conversation's end stays there when the view or its content changes size (a reload, fonts, the working line). */
function keepAtEnd(): void {
  // The start page is read from its heading: its lists arriving (a resize) must not scroll it to its end.
  if (home.visible) return;
  if (scroll.atEnd) scroller.scrollTop = scroller.scrollHeight;
}
// A card appearing (or a reply growing, or the view resized) keeps a reader who was at the end there,
// or on the question a waiting card asks.
const follow = () => (questionShown ? revealQuestion() : keepAtEnd());
for (const region of [scroller, log, approvals]) new ResizeObserver(follow).observe(region);
void document.fonts?.ready.then(keepAtEnd);
// An answer to an approval that no longer waits (answered elsewhere, its run ended): redraw from the host.
const approvalCards = new ApprovalCards(approvals, {
  answer: (a) => client.request('approval/answer', a).then((r) => (r.ok ? undefined : requestSnapshot())),
  alwaysAllow: (a) => client.request('approval/alwaysAllow', a),
  // A form no longer waiting (answered elsewhere, its run ended): redraw from the host; wrong values come back as errors.
  answerElicitation: (a) =>
    client.request('elicitation/answer', a).then((r) => {
      if (!r.ok && !r.errors) requestSnapshot();
      return r;
    }),
  showHunkButtons: () => client.request('config/open', { what: 'hunkButtons' }),
  reasons: { ...saved?.reasons },
  changed: () => save(),
  focusLost: () => input.focus(),
  announce,
});
client.listen({
  'chat/entry': ({ chatId, entry }) => {
    if (chatId !== snapshot.chatId && snapshot.chatId) return void requestSnapshot();
    snapshot.entries.push(entry);
    transcript.add(entry);
    home.update(false);
    working.entry(entry);
    if (entry.kind === 'event' && entry.event.type === 'run/finished') announce(`Run ${entry.event.status}: ${entry.event.reason}`);
    save();
  },
  'chat/snapshot': (s) => applySnapshot(s),
  'chat/status': (s) => applyStatus(s),
  'approval/pending': (a) => {
    if (!snapshot.approvals.some((x) => x.id === a.id)) snapshot.approvals.push(a);
    renderApprovals();
    save();
  },
  'approval/updated': (a) => {
    snapshot.approvals = snapshot.approvals.map((x) => (x.id === a.id ? a : x));
    approvalCards.update(a);
    save();
  },
  'approval/resolved': ({ id }) => {
    snapshot.approvals = snapshot.approvals.filter((a) => a.id !== id);
    renderApprovals();
    clearAnsweredQuestion();
    save();
  },
  'chat/focus': () => input.focus(),
  'chat/patchStates': ({ patches }) => transcript.showPatchStates(patches),
});
if (saved?.snapshot) applySnapshot(saved.snapshot);
if (saved?.draft) input.value = saved.draft;
input.addEventListener('input', save);
void requestSnapshot();

async function requestSnapshot(): Promise<void> {
  applySnapshot(await client.request('chat/ready', {}));
}

/** Messages that waited for the stopped run's next step come back into the box, before what is there. */
async function stopRun(): Promise<void> {
  const { unsent } = await client.request('chat/stop', {});
  if (!unsent.length) return;
  input.value = [...unsent, input.value].filter((t) => t.trim()).join('\n\n');
  save();
  input.focus();
}

async function sendMessage(): Promise<void> {
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  save();
  await sendText(text);
}

/** A message to the host (typed, or a failed run's goal sent again by Retry); a refusal puts it back in the box. */
async function sendText(text: string): Promise<void> {
  const r = await client.request('chat/send', { text }).catch((err: Error) => ({ delivered: 'refused' as const, reason: err.message }));
  if (r.delivered === 'refused') {
    input.value = text;
    showBanner(r.reason ?? 'PatchPilot cannot run now.', 'warning');
    // The same banner may have been there before: Send must visibly (and audibly) answer, so the
    // way out gets the focus (Set API Key, Use Demo Model...); the message stays in the box.
    bannerSlot.querySelector<HTMLElement>('button')?.focus();
  }
}

function applySnapshot(s: ChatSnapshot): void {
  snapshot = { ...s, entries: [...s.entries], approvals: [...s.approvals] };
  const at = scroll;
  transcript.reset(snapshot.entries);
  home.update(snapshot.entries.length === 0);
  scroller.scrollTop = home.visible ? 0 : at.atEnd ? scroller.scrollHeight : at.top;
  // A reloaded view lays out (fonts, the panel's size) after this: a chat that was at its end stays there.
  requestAnimationFrame(keepAtEnd);
  renderApprovals();
  clearAnsweredQuestion();
  applyStatus(s.status);
  save();
}

function announce(text: string, kind: 'waiting' | 'news' = 'news'): void {
  // A new node, so the same words twice are announced twice.
  announcer.replaceChildren(el('div', undefined, text));
  announcing = kind;
}
/** Once nothing waits, "waits for your answer" is no longer true: a reader who reaches the region later must not hear it. */
function clearAnsweredQuestion(): void {
  if (announcing === 'waiting' && snapshot.approvals.length === 0) {
    announcer.replaceChildren();
    announcing = undefined;
  }
}

// Escape stops the run from anywhere in the chat, as in VS Code's own chat; a control that uses
// Escape itself (the command suggestions) takes it first and stops its propagation.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || !snapshot.status.running) return;
  e.preventDefault();
  void stopRun();
  announce('Stopping the run.');
});

function applyStatus(s: ChatStatus): void {
  if (s.running && !snapshot.status.running && snapshot.chatId) announce('PatchPilot is working.');
  // Stop is about to be disabled under the keyboard's focus: the focus goes back to the message box.
  if (!s.running && document.activeElement === stop) input.focus();
  snapshot.status = s;
  suggest.setCommands(s.commands, s.mentions);
  working.running(s.running);
  restores.setRunning(s.running);
  modelLabel.textContent = s.demo ? 'Model: demo (scripted)' : s.model ? `Model: ${s.model}` : 'No model selected';
  setEnabled(stop, s.running);
  if (s.notice) showBanner(s.notice, s.trusted ? 'warning' : 'info');
  else {
    if (s.demo) showDemoBanner(s.sampleHere === true);
    else bannerSlot.replaceChildren();
    if (s.testsOffer) bannerSlot.append(testsOfferBanner(s.testsOffer));
  }
}

/** The project's own test command, found by the host: Use asks (in VS Code's quick pick) where to keep it: this window, the workspace or the user settings. */
function testsOfferBanner(offer: { command: string; source: string }): HTMLElement {
  const answer = (a: 'use' | 'not-now' | 'never') => void client.request('tests/answer', { answer: a });
  return banner(`Tests found: "${offer.command}" (from ${offer.source}). Run them after every edit the agent makes?`, 'info', [
    button({ label: `Use ${offer.command}`, onClick: () => answer('use') }),
    button({ label: 'Not Now', variant: 'secondary', onClick: () => answer('not-now') }),
    button({ label: 'Never for This Workspace', variant: 'secondary', onClick: () => answer('never') }),
  ]);
}

function showBanner(text: string, level: 'info' | 'warning'): void {
  const actions = snapshot.status.trusted
    ? setupActions(text).map((a) =>
        button({ label: a.label, variant: a.primary ? 'primary' : 'secondary', onClick: () => void client.request('config/open', { what: a.what }) }),
      )
    : [];
  bannerSlot.replaceChildren(banner(text, level, actions));
  // A refused Send shows its reason here too: the question about the project's tests stays beside it.
  if (snapshot.status.testsOffer) bannerSlot.append(testsOfferBanner(snapshot.status.testsOffer));
}

/** While the demo answers, the chat says so plainly, with the way out; outside the sample, what it can show there. */
function showDemoBanner(sampleHere: boolean): void {
  const text = sampleHere
    ? "Demo model: scripted replies that walk the sample project's failing date test. It is not a language model; set up your own to work on real code."
    : "Demo model: scripted replies that know only the sample project's failing date test (dates.js), which this project does not have. Here it can run your tests and then stops. Open the Sample Project to see the whole loop, or set up a real model.";
  // One primary action: in another project the sample is the way forward; in the sample, a real model.
  const choose = button({
    label: 'Choose Provider',
    variant: sampleHere ? 'primary' : 'secondary',
    onClick: () => void client.request('config/open', { what: 'provider' }),
  });
  const stopDemo = button({ label: 'Stop Using Demo Model', variant: 'secondary', onClick: () => void client.request('config/open', { what: 'stopDemo' }) });
  const openSample = button({ label: 'Open the Sample Project', onClick: () => void client.request('config/open', { what: 'sample' }) });
  bannerSlot.replaceChildren(banner(text, 'info', sampleHere ? [choose, stopDemo] : [openSample, choose, stopDemo]));
}

function renderApprovals(): void {
  const before = approvals.childElementCount;
  approvalCards.render(snapshot.approvals);
  if (approvals.childElementCount > before) revealQuestion();
  else if (approvals.childElementCount === 0) questionShown = false;
}

for (const intent of ['wheel', 'touchmove', 'keydown'] as const) scroller.addEventListener(intent, () => (questionShown = false), { passive: true });

/**
 * A card waiting for an answer is read with the model's message that explains it: the view shows that
 * message from its first line when the card's actions then fit too, else the actions at the bottom.
 */
function revealQuestion(): void {
  const card = approvals.lastElementChild as HTMLElement | null;
  const messages = log.querySelectorAll<HTMLElement>('.pp-msg.pp-assistant');
  const message = messages[messages.length - 1];
  if (!card || !message) return;
  const origin = scroller.getBoundingClientRect().top - scroller.scrollTop;
  const actions = card.querySelector<HTMLElement>('.pp-approval-actions') ?? card;
  const top = message.getBoundingClientRect().top - origin;
  const actionsBottom = actions.getBoundingClientRect().bottom - origin;
  const view = scroller.clientHeight;
  scroller.scrollTop = actionsBottom - top + 16 <= view ? top - 8 : actionsBottom - view + 8;
  questionShown = true;
}

function save(): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  const state: SavedState = {
    snapshot: { ...snapshot, entries: snapshot.entries.slice(-400) },
    draft: input?.value,
    reasons: approvalCards?.reasons,
    openCalls: [...transcript.openCalls],
    scroll,
  };
  client.api.setState(state);
}

/** Scrolling saves a moment later, once (the state holds the whole chat). */
function saveSoon(): void {
  saveTimer ??= setTimeout(save, 300);
}

// A view hidden within that moment is gone: what is pending is saved on the way out.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden' && saveTimer) save();
});

export type { ChatEntry };
