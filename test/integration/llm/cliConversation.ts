/**
 * A real three-message conversation through the built CLI against the scripted model server: goal
 * one reads a file (which brings in src/AGENTS.md) and edits it (the workspace is then dirty), goal two (`--resume last`, a new
 * process) reads again after the user added a file, goal three (`--resume last`) comes after the user
 * committed. Each agent request's prompt is taken in the order a provider's prefix cache reads it
 * (the tool list, then the messages, system prompt first) and compared byte for byte with the
 * request before it. Shared by `npm run bench:cache-prefix` and the test that holds the prefix.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const MODEL = 'scripted-model';

export interface PromptRow {
  /** 1-based request number over the whole conversation. */
  request: number;
  /** Which of the three goals sent it (1-3) and whether it was that goal's first request. */
  goal: number;
  firstOfGoal: boolean;
  bytes: number;
  /** Bytes at the start equal to the previous request's, byte for byte. */
  sharedPrefix: number;
}

export interface Conversation {
  rows: PromptRow[];
  /** Each agent request's prompt text (tools, then messages), in order. */
  prompts: string[];
  /** Each agent request's parsed body. */
  bodies: { messages: { role: string; content: unknown }[]; tools: unknown[] }[];
  /** Per goal: the CLI's `--json` events and `history show last --json` right after it. */
  goals: { events: { type: string; [k: string]: unknown }[]; history: { usage: { source: string; cachedTokens: number }[] } }[];
}

/** What the scripted server reports per agent request: most of the prompt served from the cache. */
export const REPORTED_USAGE = { promptTokens: 3_000, completionTokens: 20, cachedTokens: 2_800 };

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const usage = REPORTED_USAGE;

interface Goal {
  goal: string;
  turns: ScriptedTurn[];
  /** `--approve`; default auto-edit. */
  approve?: string;
}

const GOALS: Goal[] = [
  {
    goal: 'add() in src/math.js subtracts; make it add',
    turns: [
      { reply: { text: 'Reading the file.', toolCalls: [call('read_file', { path: 'src/math.js' })], usage } },
      { reply: { toolCalls: [call('edit_file', { path: 'src/math.js', old_string: 'return a - b;', new_string: 'return a + b;' })], usage } },
      { reply: { toolCalls: [call('finish', { summary: 'add() adds now.' })], usage } },
    ],
  },
  {
    goal: 'does anything else in src/ call add()?',
    turns: [
      { reply: { toolCalls: [call('grep', { pattern: 'add\\(', path: 'src' })], usage } },
      { reply: { toolCalls: [call('finish', { summary: 'Only src/total.js calls it.' })], usage } },
    ],
  },
  {
    goal: 'summarize what changed',
    turns: [{ reply: { toolCalls: [call('finish', { summary: 'add() was fixed; src/total.js uses it.' })], usage } }],
  },
];

/**
 * What changes between goals besides the files: goal one saves a fact with remember (MEMORY.md
 * changes), goal two runs in another approval mode (auto), goal three in the same. Neither may
 * rewrite the system prompt: they ride with the goal that needs them (goalNotes.ts).
 */
const MEMORY_AND_MODE_GOALS: Goal[] = [
  {
    goal: GOALS[0]!.goal,
    turns: [
      GOALS[0]!.turns[0]!,
      GOALS[0]!.turns[1]!,
      { reply: { toolCalls: [call('remember', { fact: 'The arithmetic helpers live in src/math.js.' })], usage } },
      GOALS[0]!.turns[2]!,
    ],
  },
  { ...GOALS[1]!, approve: 'auto' },
  { ...GOALS[2]!, approve: 'auto' },
];

export const SCENARIOS = { workspace: GOALS, 'memory-and-mode': MEMORY_AND_MODE_GOALS } as const;
export type Scenario = keyof typeof SCENARIOS;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The prompt as a prefix cache reads it: tools first, then the messages (the system prompt first). */
export function promptText(body: { tools?: unknown; messages?: unknown }): string {
  return JSON.stringify({ tools: body.tools ?? [], messages: body.messages ?? [] });
}

function workspace(): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cache-prefix-')));
  const files: Record<string, string> = {
    'package.json': '{"name":"calc","version":"1.0.0"}\n',
    'README.md': '# calc\n\nSmall arithmetic helpers.\n',
    'src/math.js': 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n',
    // A nested rules file: it joins when the run first touches src/ (docs/rules.md).
    'src/AGENTS.md': 'Functions in src/ keep a one-line comment saying what they return.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  return root;
}

function git(root: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: root, stdio: 'pipe' });
}

function runCli(args: string[], command = 'run'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATCHPILOT_API_KEY: 'test-key' };
  delete env.NODE_TEST_CONTEXT;
  delete env.OPENAI_API_KEY;
  const child = spawn(process.execPath, [CLI, command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Runs the three goals and measures every agent request's shared prefix. `workspace`: the files
 * change between goals; `memory-and-mode`: a remember in goal one and another approval mode from goal two.
 */
export async function threeMessageConversation(scenario: Scenario = 'workspace'): Promise<Conversation> {
  const GOALS = SCENARIOS[scenario];
  const root = workspace();
  const server = await ScriptedModelServer.start({
    modelId: MODEL,
    turns: GOALS.flatMap((g) => g.turns),
    // Requests without tools (insights, summaries by the fast model) are answered aside and not measured.
    routes: [{ match: (body) => !Array.isArray(body.tools) || body.tools.length === 0, reply: () => ({ text: 'Noted.' }) }],
  });
  const goalOf: number[] = [];
  const goals: Conversation['goals'] = [];
  try {
    for (const [i, g] of GOALS.entries()) {
      if (i === 1) writeFileSync(path.join(root, 'src', 'total.js'), "const { add } = require('./math');\nmodule.exports = (xs) => xs.reduce(add, 0);\n");
      if (i === 2) {
        git(root, 'add', '-A');
        git(root, 'commit', '-q', '-m', 'fix add, add total');
      }
      const before = agentRequests(server).length;
      const args = [
        '--goal',
        g.goal,
        '--workspace',
        root,
        '--approve',
        g.approve ?? 'auto-edit',
        '--no-detect-tests',
        '--base-url',
        server.baseUrl,
        '--model',
        MODEL,
        '--json',
      ];
      const r = await runCli(i === 0 ? args : [...args, '--resume', 'last']);
      if (r.code !== 0) throw new Error(`goal ${i + 1} ended with exit ${r.code}: ${r.stderr.slice(-2_000)}`);
      for (let n = before; n < agentRequests(server).length; n++) goalOf.push(i + 1);
      const shown = await runCli(['show', 'last', '--cwd', root, '--json'], 'history');
      if (shown.code !== 0) throw new Error(`history show failed: ${shown.stderr}`);
      const events = r.stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Conversation['goals'][number]['events'][number]);
      goals.push({ events, history: JSON.parse(shown.stdout) as Conversation['goals'][number]['history'] });
    }
    const bodies = agentRequests(server).map((q) => q.body as Conversation['bodies'][number]);
    const prompts = bodies.map(promptText);
    const rows = prompts.map((text, i) => ({
      request: i + 1,
      goal: goalOf[i]!,
      firstOfGoal: i === 0 || goalOf[i] !== goalOf[i - 1],
      bytes: Buffer.byteLength(text),
      sharedPrefix: i === 0 ? 0 : Buffer.byteLength(text.slice(0, commonPrefix(prompts[i - 1]!, text))),
    }));
    return { rows, prompts, bodies, goals };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function agentRequests(server: ScriptedModelServer) {
  return server.chatRequests.filter((q) => Array.isArray(q.body?.tools) && q.body.tools.length > 0);
}

/** Where two prompts part, with some text around it on each side (to find what varies). */
export function partingPoint(a: string, b: string, around = 120): { at: number; before: string; was: string; now: string } {
  const at = commonPrefix(a, b);
  return { at, before: a.slice(Math.max(0, at - around), at), was: a.slice(at, at + around), now: b.slice(at, at + around) };
}
