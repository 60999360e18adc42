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
import { spawn } from 'node:child_process';
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
  const encoder = new TextEncoder();
  let stop: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let finished = false;
      const fail = (err: Error) => {
        if (finished) return;
        finished = true;
        controller.error(err);
      };
      const refused = o.preflight?.();
      if (refused) return fail(new ModelApiError({ kind: 'bad-request', retryable: false, message: `${o.label} was not started: ${refused}` }));
      const [file, ...args] = o.argv;
      // Its own process group, so a cancel or a stall ends whatever the program started too.
      const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: o.env ?? process.env });
      let stderr = '';
      let pending = '';
      const killGroup = (sig: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, sig);
        } catch {
          // No process groups (Windows) or the group is gone: the program itself at least.
          child.kill(sig);
        }
      };
      stop = () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        killGroup('SIGTERM');
        setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS).unref();
      };
      const onAbort = () => {
        stop?.();
        fail(Object.assign(new Error('the request was aborted'), { name: 'AbortError' }));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });

      // A JSON object spread over several lines (a pretty-printed reply) is gathered until it parses.
      let partialJson = '';
      const emitLine = (line: string): boolean => {
        if (partialJson || (line.trimStart().startsWith('{') && toSseText(line) === undefined)) {
          partialJson += `${line}\n`;
          if (partialJson.length > MAX_JSON_CHARS) return reject(partialJson.slice(0, 200));
          const whole = oneLineJson(partialJson);
          if (whole === undefined) return true;
          partialJson = '';
          line = whole;
        }
        const text = toSseText(line);
        if (text === undefined) return reject(line);
        if (!finished && text) controller.enqueue(encoder.encode(text));
        return true;
      };
      const reject = (line: string): false => {
        stop?.();
        fail(programError(o, `wrote a line that is neither SSE ("data: {...}") nor a JSON chunk: ${JSON.stringify(line.slice(0, 200))}`, stderr));
        return false;
      };
      child.stdout.setEncoding('utf8').on('data', (data: string) => {
        pending += data;
        let nl: number;
        while (!finished && (nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (!emitLine(line)) return;
        }
      });
      child.stderr.setEncoding('utf8').on('data', (data: string) => {
        stderr = (stderr + data).slice(-STDERR_TAIL_CHARS);
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        signal?.removeEventListener('abort', onAbort);
        fail(startError(o, err));
      });
      child.on('close', (code, sig) => {
        signal?.removeEventListener('abort', onAbort);
        if (finished) return;
        if (pending && !emitLine(pending)) return;
        if (partialJson && code === 0) return void reject(partialJson);
        if (code === 0) {
          finished = true;
          controller.close();
          return;
        }
        fail(programError(o, sig ? `was ended by ${sig}` : `exited with code ${code}`, stderr));
      });
      // A program that does not read its stdin closes the pipe: not an error by itself.
      child.stdin.on('error', () => undefined);
      child.stdin.end(request);
    },
    cancel() {
      stop?.();
    },
  });
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
