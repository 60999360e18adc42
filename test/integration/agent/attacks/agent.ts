// Drives the built `patchpilot run` against a scripted model whose turns attack through the tools,
// then gathers what a test needs: exit code, events, what the model was told for each call id, and
// the policy decisions the history database kept.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ScriptedModelServer, type ScriptedToolCall, type ScriptedTurn } from '../../../support/scriptedModel';
import { CLI, type Arena } from './arena';

export { CLI };

export const call = (id: string, name: string, args: Record<string, unknown>): ScriptedToolCall => ({ id, name, arguments: args });
export const turn = (...calls: ScriptedToolCall[]): ScriptedTurn => ({ reply: { toolCalls: calls } });
export const finish = (summary = 'Done.'): ScriptedTurn => turn(call('finish', 'finish', { summary }));

/**
 * The exit code a contained run ends with: 4 when it finished over failing tests (the finish gate
 * refused the first finish; the CLI's exit says how the tests ended), else 0. A script whose tests
 * may fail ends with two finish() turns.
 */
export function cleanExit(run: AgentRun): number {
  const end = run.events.at(-1);
  return end?.type === 'result' && end.tests === 'failed' ? 4 : 0;
}

export interface PolicyRow {
  kind: string;
  subject: string;
  verdict: string;
  rule: string | null;
  reason: string;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  events: { type: string; [k: string]: unknown }[];
  /** What the model received as the result of each tool call, by call id. */
  results: Map<string, string>;
  /** Every message content the model received, joined: for "the secret never reached the model". */
  allModelInput: string;
  policy: PolicyRow[];
  server: ScriptedModelServer;
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: NodeJS.ProcessEnv): Promise<Spawned> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The CLI's environment: the arena's HOME, a test key, nothing inherited that could steer it. */
export function cliEnv(arena: Arena, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: arena.home, PATCHPILOT_API_KEY: 'test-key', ...extra };
  for (const k of [
    'NODE_TEST_CONTEXT',
    'OPENAI_API_KEY',
    'PATCHPILOT_BASE_URL',
    'PATCHPILOT_MODEL',
    'PATCHPILOT_FAST_MODEL',
    'XDG_CONFIG_HOME',
    'GIT_CONFIG_GLOBAL',
  ]) {
    if (!(k in extra)) delete env[k];
  }
  return env;
}

export async function runAgent(
  arena: Arena,
  turns: ScriptedTurn[],
  /** mode 'settings': no --approve flag, the approval mode comes from the settings files. */
  options: { mode?: 'auto' | 'auto-edit' | 'settings'; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<AgentRun> {
  const server = await ScriptedModelServer.start(turns);
  try {
    const env = cliEnv(arena, options.env);
    const r = await node(
      [
        CLI,
        'run',
        '--goal',
        'tidy up the project',
        '--workspace',
        arena.ws,
        ...(options.mode === 'settings' ? [] : ['--approve', options.mode ?? 'auto']),
        '--json',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        ...(options.args ?? []),
      ],
      env,
    );
    const exported = await node([CLI, 'history', 'export', '--format', 'jsonl', '--cwd', arena.ws], env);
    if (exported.code !== 0) throw new Error(`history export failed (${exported.code}): ${exported.stderr}`);
    const policy = exported.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { table: string; row: PolicyRow })
      .filter((rec) => rec.table === 'policy_decisions')
      .map((rec) => rec.row);
    const results = new Map<string, string>();
    const inputs: string[] = [];
    for (const req of server.chatRequests) {
      for (const m of (req.body?.messages ?? []) as { role: string; content: unknown; tool_call_id?: string }[]) {
        const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
        inputs.push(text);
        if (m.role === 'tool' && m.tool_call_id && !results.has(m.tool_call_id)) results.set(m.tool_call_id, text);
      }
    }
    const events = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
    return { ...r, events, results, allModelInput: inputs.join('\n'), policy, server };
  } finally {
    await server.close();
  }
}

/** A 127.0.0.1 server that counts every TCP connection and HTTP request: nothing may reach it. */
export class Canary {
  connections = 0;
  readonly requests: string[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Canary> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const canary = new Canary(server, (server.address() as AddressInfo).port);
    server.on('connection', (s) => {
      canary.connections++;
      canary.sockets.add(s);
      s.on('close', () => canary.sockets.delete(s));
    });
    server.on('request', (req, res) => {
      canary.requests.push(`${req.method} ${req.url}`);
      res.end(canary.body(req.url ?? '/'));
    });
    return canary;
  }

  /** What a request gets: overridable by tests that serve a page. */
  body: (url: string) => string = () => 'echo pwned\n';

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Finds the history rows of a subject (the command, path or URL the agent asked for). */
/** The policy's verdict on `subject` (the user's answer to an ask is its own row, rule "user-answer", skipped here). */
export function decisionFor(run: AgentRun, kind: string, subject: string | RegExp): PolicyRow | undefined {
  return run.policy.find((p) => p.kind === kind && p.rule !== 'user-answer' && (typeof subject === 'string' ? p.subject === subject : subject.test(p.subject)));
}
