/**
 * A model served by a local program (`patchpilot.llm.command`): a `fetch` for the `openai` client
 * that runs the program once per request, writes the chat-completions request (JSON) to its stdin
 * and answers with its stdout as the response body. Everything after that (SSE parsing, the
 * assembler, retries, the idle timeout, usage) is the OpenAI-compatible client's own path.
 *
 * The program may write SSE as an OpenAI server sends it (`data: {...}` lines, blank lines between
 * events, `data: [DONE]`) or plain JSON lines of chunks; both are accepted, line by line. A line that
 * is neither, a program that cannot start, a non-zero exit: each ends the reply with an error that
 * names the program and quotes the end of its stderr.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ModelApiError } from '../errors';

export interface ModelProgramOptions {
  /** The program and its arguments (splitCommandLine); never run through a shell. */
  argv: readonly string[];
  /** How messages name it ("the model program `node model.js`"). */
  label: string;
  /** Where the command came from, for hints ("patchpilot.llm.command in user settings", "--llm-command"). */
  origin: string;
  env?: NodeJS.ProcessEnv;
  /** Checked right before every start: a reason not to start it (its approved files changed), or undefined. */
  preflight?: () => string | undefined;
}

/** The tail of stderr kept for messages. */
const STDERR_TAIL_CHARS = 2_000;
/** A multi-line JSON reply larger than this is not waited for. */
const MAX_JSON_CHARS = 8_000_000;
/** After SIGTERM, the program gets this long before SIGKILL. */
const KILL_GRACE_MS = 1_000;

/**
 * A command line split into words the way a shell would for simple cases: whitespace separates,
 * single quotes keep everything, double quotes keep everything but `\"` and `\\`, a backslash
 * outside quotes escapes the next character. No variables, globs or operators: nothing is expanded.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  return words;
}

/**
 * One line of the program's stdout as SSE text for the SDK's parser: SSE lines pass unchanged, a
 * JSON line becomes one `data:` event. A whole chat.completion object (`message` instead of
 * `delta`) is read as a single chunk. Undefined: the line is neither.
 */
export function toSseText(line: string): string | undefined {
  const text = line.replace(/\r$/, '');
  // Each `data:` line is one event (chat-completion streams never span lines), so a program that
  // leaves out the blank lines between events is read right too; its own blank lines add nothing.
  if (text.trim() === '') return '';
  if (text.startsWith('data:')) return `${text}\n\n`;
  if (/^(event|id|retry):/.test(text) || text.startsWith(':')) return `${text}\n`;
  const trimmed = text.trim();
  if (trimmed === '[DONE]') return 'data: [DONE]\n\n';
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const choices = (value as { choices?: unknown }).choices;
  if (Array.isArray(choices) && choices.some((c) => c && typeof c === 'object' && 'message' in c && !('delta' in c))) {
    const asChunk = {
      ...(value as object),
      object: 'chat.completion.chunk',
      choices: choices.map((c: Record<string, unknown>) => ('message' in c && !('delta' in c) ? { ...c, delta: c.message, message: undefined } : c)),
    };
    return `data: ${JSON.stringify(asChunk)}\n\n`;
  }
  return `data: ${trimmed}\n\n`;
}

/** The text as one line of JSON when it parses as a whole object, else undefined. */
function oneLineJson(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? JSON.stringify(value) : undefined;
  } catch {
    return undefined;
  }
}

/** The `fetch` that runs the program; pass it to the `openai` client. */
export function createProgramFetch(o: ModelProgramOptions): typeof fetch {
  return async (_input, init) => {
    const request = typeof init?.body === 'string' ? init.body : init?.body ? Buffer.from(init.body as ArrayBuffer).toString('utf8') : '';
    return new Response(runProgram(o, request, init?.signal ?? undefined), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

function runProgram(o: ModelProgramOptions, request: string, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let run: ProgramRun | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      run = new ProgramRun(o, controller);
      run.start(request, signal);
    },
    cancel() {
      run?.stop();
    },
  });
}

/**
 * One run of the program for one request: its stdout's lines go to the stream as SSE, its stderr's
 * tail goes into the error when it fails; the first end (close, error, abort, a bad line) settles the stream.
 */
class ProgramRun {
  private finished = false;
  private stderr = '';
  /** Stdout after its last newline. */
  private pending = '';
  /** A JSON object spread over several lines (a pretty-printed reply), gathered until it parses. */
  private partialJson = '';
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly o: ModelProgramOptions,
    private readonly controller: ReadableStreamDefaultController<Uint8Array>,
  ) {}

  start(request: string, signal: AbortSignal | undefined): void {
    const { o } = this;
    const refused = o.preflight?.();
    if (refused) return this.fail(new ModelApiError({ kind: 'bad-request', retryable: false, message: `${o.label} was not started: ${refused}` }));
    const [file, ...args] = o.argv;
    // Its own process group, so a cancel or a stall ends whatever the program started too.
    const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: o.env ?? process.env });
    this.child = child;
    const onAbort = () => {
      this.stop();
      this.fail(Object.assign(new Error('the request was aborted'), { name: 'AbortError' }));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (data: string) => this.readStdout(data));
    child.stderr.setEncoding('utf8').on('data', (data: string) => {
      this.stderr = (this.stderr + data).slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      this.fail(startError(o, err));
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      this.closed(code, sig);
    });
    // A program that does not read its stdin closes the pipe: not an error by itself.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request);
  }

  /** SIGTERM to the program's group, SIGKILL after the grace. */
  stop(): void {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.killGroup(child, 'SIGTERM');
    setTimeout(() => this.killGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref();
  }

  private killGroup(child: ChildProcessWithoutNullStreams, sig: NodeJS.Signals): void {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // No process groups (Windows) or the group is gone: the program itself at least.
      child.kill(sig);
    }
  }

  private fail(err: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.controller.error(err);
  }

  private readStdout(data: string): void {
    this.pending += data;
    let nl: number;
    while (!this.finished && (nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      if (!this.emitLine(line)) return;
    }
  }

  /** One line of stdout to the stream; false when it was neither SSE nor JSON (the run failed). */
  private emitLine(line: string): boolean {
    if (this.partialJson || (line.trimStart().startsWith('{') && toSseText(line) === undefined)) {
      this.partialJson += `${line}\n`;
      if (this.partialJson.length > MAX_JSON_CHARS) return this.reject(this.partialJson.slice(0, 200));
      const whole = oneLineJson(this.partialJson);
      if (whole === undefined) return true;
      this.partialJson = '';
      line = whole;
    }
    const text = toSseText(line);
    if (text === undefined) return this.reject(line);
    if (!this.finished && text) this.controller.enqueue(this.encoder.encode(text));
    return true;
  }

  private reject(line: string): false {
    this.stop();
    this.fail(programError(this.o, `wrote a line that is neither SSE ("data: {...}") nor a JSON chunk: ${JSON.stringify(line.slice(0, 200))}`, this.stderr));
    return false;
  }

  /** The program ended: the rest of its output, then a clean end on exit code 0, an error otherwise. */
  private closed(code: number | null, sig: NodeJS.Signals | null): void {
    if (this.finished) return;
    if (this.pending && !this.emitLine(this.pending)) return;
    if (this.partialJson && code === 0) return void this.reject(this.partialJson);
    if (code === 0) {
      this.finished = true;
      this.controller.close();
      return;
    }
    this.fail(programError(this.o, sig ? `was ended by ${sig}` : `exited with code ${code}`, this.stderr));
  }
}

function startError(o: ModelProgramOptions, err: NodeJS.ErrnoException): ModelApiError {
  const file = o.argv[0];
  const why =
    err.code === 'ENOENT'
      ? `the program "${file}" was not found: give its full path or put it on PATH`
      : err.code === 'EACCES'
        ? `"${file}" is not executable (chmod +x it, or name its interpreter first, e.g. "node ${file}")`
        : `"${file}" could not start: ${err.message}`;
  return new ModelApiError({ kind: 'bad-request', retryable: false, message: `${o.label}: ${why} (set by ${o.origin})`, cause: err });
}

function programError(o: ModelProgramOptions, what: string, stderr: string): ModelApiError {
  const tail = stderr.trim();
  return new ModelApiError({
    kind: 'server',
    retryable: false,
    message: `${o.label} ${what}${tail ? `; its stderr ends with: ${tail.split('\n').slice(-5).join('\n')}` : ' (nothing on stderr)'}`,
  });
}
