/**
 * The chat webview's protocol: one map from `"area/verb"` to its payload types. The webview sends
 * requests (ToHost: `[request, response]`); the host answers each one by id and pushes updates
 * (ToWebview). Zero imports but agentEvents: the webview bundles this file as is. The host checks
 * every incoming message with validate.ts before a handler sees it.
 */
import type { AgentEvent, HunkView } from './agentEvents';
import type { ElicitationField, ElicitationInput } from './elicitationForm';
import type { RestoreDone, RestoreOutcome, RestorePreview, RestoreRequest } from './restore';
import type { PatchStateView } from './patchState';

type Empty = Record<string, never>;

/** One line of the chat as the user sees it; the webview renders a list of these. */
export type ChatEntry =
  | { kind: 'user'; text: string; /** sent during a run: waits for the model's next step */ queued?: boolean }
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  /** A reply of the model in an earlier conversation, opened again from the history (its runs' steps stay there). */
  | { kind: 'reply'; text: string }
  /** The user restored files to a checkpoint (or redid a restore), from the chat or the history panel. */
  | { kind: 'restore'; done: RestoreDone };

/** One hunk of a patch under review and the user's decision so far (the review card lists them). */
export interface ReviewHunkView {
  id: string;
  /** "Hunk 1 of 2 in shapes.js, lines 1-3": how the user tells the hunks apart. */
  label: string;
  state: 'undecided' | 'accepted' | 'rejected';
  reason?: string;
}

/** An approval the host waits for; it stays until answered or its run ends, whatever the view does. */
export interface PendingApproval {
  id: string;
  kind: 'patch' | 'command' | 'write' | 'tests' | 'fetch' | 'mcp' | 'hook' | 'elicitation';
  title: string;
  reason?: string;
  /** The command's cwd, the file content, the patch text: shown as plain text. */
  detail?: string;
  hunks?: HunkView[];
  /** A patch under review in the diff editor: the card offers Accept / Reject for the whole patch (with an optional reason). */
  review?: boolean;
  /** A patch under review: each hunk and its state, updated as the user decides in the diff editor. */
  hunkStates?: ReviewHunkView[];
  /** VS Code hides the diff editor's per-hunk buttons (diffEditor.codeLens off): the card offers "Show Hunk Buttons". */
  hunkButtonsHidden?: boolean;
  /** A command's card: what "Always Allow" may add to patchpilot.policy.allow (the exact command, its prefix with `*`). */
  allowPatterns?: string[];
  /** An MCP server's form (kind `elicitation`): the card shows one labelled input per field and answers with elicitation/answer. */
  form?: ElicitationFormView;
}

/** What an MCP server asks the user to fill in (spec 2025-11-25 elicitation, form mode), fields from elicitationForm.ts. */
export interface ElicitationFormView {
  server: string;
  message: string;
  fields: ElicitationField[];
  /** Properties the form cannot ask (not primitives): named on the card, never silently dropped. */
  unsupported: string[];
}

export interface ChatStatus {
  running: boolean;
  /** The model the next run uses, when configured. */
  model?: string;
  endpoint?: string;
  trusted: boolean;
  /** Why the chat cannot run now (no endpoint, restricted mode), for a banner. */
  notice?: string;
  /** The built-in demo model answers (scripted replies, not a language model): the view says so. */
  demo?: boolean;
  /** With the demo on: whether this workspace is the sample it knows (dates.js); elsewhere the banner says what it can show. */
  sampleHere?: boolean;
  /** A test command found in the project, offered until answered ("Use npm test", Not Now, Never for This Workspace). */
  testsOffer?: { command: string; source: string };
  /** The prompts of the running, approved MCP servers, as slash commands the message box suggests. */
  commands?: SlashCommandView[];
  /** Their resources, as `@<server>:<uri>` mentions the message box suggests (attached when sent). */
  mentions?: SlashCommandView[];
}

/** `/mcp.<server>.<prompt>` with its arguments (`city=... [state=...]`), for the message box's suggestions. */
export interface SlashCommandView {
  command: string;
  args: string;
  description?: string;
}

/** An earlier chat from the history store, to open and continue. */
export interface ConversationView {
  /** Its newest run: the conversation continues from that run's end. */
  runId: string;
  /** Its first message. */
  title: string;
  /** When its newest run started (ms since the epoch). */
  when: number;
  /** Runs (messages that started one) found for it. */
  turns: number;
  status: string;
  model?: string;
}

/** The empty chat: what PatchPilot can do here, goals that fit this project, the conversations to go back to. */
export interface ChatHome {
  /** Goals made from what the project has (its test command, its languages, the sample's bug). */
  examples: string[];
  conversations: ConversationView[];
}

export interface ChatSnapshot {
  chatId: string;
  entries: ChatEntry[];
  approvals: PendingApproval[];
  status: ChatStatus;
}

/** Webview -> host: request name -> [request payload, response payload]. */
export interface ToHost {
  /** The view (re)loaded: the host answers with everything to draw. */
  'chat/ready': [Empty, ChatSnapshot];
  /** A message: a run's goal, a follow-up, or (while a run works) a note for its next step. */
  'chat/send': [{ text: string }, { delivered: 'started' | 'queued' | 'refused'; reason?: string }];
  /** `unsent`: messages that waited for the run's next step, given back for the message box. */
  'chat/stop': [Empty, { stopped: boolean; unsent: string[] }];
  'chat/new': [Empty, ChatSnapshot];
  'approval/answer': [{ id: string; approved: boolean; feedback?: string }, { ok: boolean }];
  /** Approve, and add one of the card's allowPatterns to patchpilot.policy.allow in the workspace's or the user's settings. */
  'approval/alwaysAllow': [{ id: string; pattern: string; scope: 'workspace' | 'user' }, { ok: boolean; error?: string }];
  /**
   * The answer to an MCP server's form card: `values` as typed (accept only), checked on the host with
   * the shared form model; `errors` by field key when they do not pass (the card shows them inline).
   */
  'elicitation/answer': [{ id: string; action: 'accept' | 'decline' | 'cancel'; values?: ElicitationInput }, { ok: boolean; errors?: Record<string, string> }];
  /** What the empty chat shows (examples for this project, recent conversations). */
  'chat/home': [Empty, ChatHome];
  /** Opens an earlier conversation (ConversationView.runId) as the chat, to continue it. */
  'chat/openConversation': [{ runId: string }, { opened: boolean; reason?: string }];
  /** A link in a reply: the host validates (http/https only) and asks VS Code to open it. */
  'link/open': [{ url: string }, { opened: boolean }];
  /** Buttons of the "not configured" banner and the header: they run the host's own commands (`provider`: the Select Model flow from its first step). */
  'config/open': [{ what: 'apiKey' | 'model' | 'provider' | 'settings' | 'demo' | 'stopDemo' | 'hunkButtons' | 'sample' }, { ok: boolean }];
  /** The answer to the detected test command's offer (ChatStatus.testsOffer): `use` asks where to keep patchpilot.tests.commands (this window, workspace or user). */
  'tests/answer': [{ answer: 'use' | 'not-now' | 'never' }, { ok: boolean }];
  /** "Show Output" on a test run's row: the host brings up the newest task terminal of `command` (false: it was closed). */
  'tests/showOutput': [{ command: string }, { shown: boolean }];
  /** Undo Patch on a written patch's item (`key`: its patch/applied event's undoKey); `message` says what happened. */
  'patch/undo': [{ key: string }, { ok: boolean; message: string }];
  /** Revert Patch on a patch card known from the history (PatchStateView.canRevert): the history panel's Revert of that patch. */
  'patch/revert': [{ runId: string; patchId: string }, { ok: boolean; message: string }];
  /** "Restore to before step N" (or its Redo): what it would change, before anything is written. */
  'restore/preview': [RestoreRequest, RestorePreview];
  /** One file of a preview in the native diff editor (now -> after the restore). */
  'restore/diff': [RestoreRequest & { path: string }, { ok: boolean; message: string }];
  /** The confirmed restore; `restoreRest`: the files that do not block go back, the blocking ones stay. */
  'restore/apply': [RestoreRequest & { restoreRest: boolean }, RestoreOutcome];
}

/** Host -> webview pushes: name -> payload. */
export interface ToWebview {
  /** A new chat line; consecutive text deltas are appended by the webview. */
  'chat/entry': { chatId: string; entry: ChatEntry };
  /** Redraw everything (after a new chat, a restore, a visibility change). */
  'chat/snapshot': ChatSnapshot;
  'chat/status': ChatStatus;
  'approval/pending': PendingApproval;
  'approval/resolved': { id: string; approved: boolean };
  /** A waiting approval changed (a hunk decided in the diff editor): the card redraws its hunk list. */
  'approval/updated': PendingApproval;
  /** The host asks the view to focus its message box (Open Chat). */
  'chat/focus': Empty;
  /**
   * Patches whose state changed (Undo Patch, the history's Apply Again or Revert, a restore), each as
   * it is now; after a snapshot, every patch the window knows. The cards show these, never their own guess.
   */
  'chat/patchStates': { patches: PatchStateView[] };
}

export type ToHostType = keyof ToHost;
export type ToWebviewType = keyof ToWebview;

/** A request envelope, discriminated by `type`. */
export type ToHostMessage = { [K in ToHostType]: { kind: 'request'; id: number; type: K; payload: ToHost[K][0] } }[ToHostType];

export type ToWebviewMessage =
  | { [K in ToWebviewType]: { kind: 'push'; type: K; payload: ToWebview[K] } }[ToWebviewType]
  | { [K in ToHostType]: { kind: 'response'; id: number; type: K; ok: true; result: ToHost[K][1] } }[ToHostType]
  | { kind: 'response'; id: number; type: ToHostType; ok: false; error: string };
