/**
 * The stdio transport for local MCP servers. The SDK's StdioClientTransport signals only its direct
 * child and inherits the terminal's process group (so Ctrl-C in the CLI would kill every server). This one:
 * - starts the server in its own session, with the allowlisted child environment plus the server's
 *   configured variables and a per-server marker (sandbox/sessionKill.ts), so `close()` ends the
 *   whole tree (an `npx` wrapper and the node it starts included), leaving no orphan;
 * - keeps the tail of stderr, so a failure can say why;
 * - reports the process's exit as a close, which the SDK turns into "connection closed" for pending calls;
 * - hands a sandboxed server's bwrap its seccomp filter on fd 3 (`--seccomp 3`, serverSandbox.ts), as commands get theirs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { closeProgramFd, openProgramFd } from '../sandbox/programFd';
import { CommandProcesses } from '../sandbox/sessionKill';
import { lazyChunk } from '../base/lazyChunks';

const STDERR_TAIL = 4_000;
const GRACE_MS = 1_000;

export interface ProcessTransportOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** A program the child reads from its fd 3 (bwrap's `--seccomp 3`). */
  seccomp?: Buffer;
}

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer = new (lazyChunk.mcp().ReadBuffer)();
  private readonly tree = new CommandProcesses();
  private stderrTail = '';
  private closed = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly options: ProcessTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr. */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  /** How the process ended, once it has. */
  get exitStatus(): string | undefined {
    if (!this.exit) return undefined;
    return this.exit.signal ? `killed by ${this.exit.signal}` : `exit code ${this.exit.code}`;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    return new Promise((resolve, reject) => {
      const child = this.spawnChild();
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (err: NodeJS.ErrnoException) => {
        const message = err.code === 'ENOENT' ? `command not found: ${this.options.command}` : err.message;
        if (!this.exit) this.exit = { code: null, signal: null };
        reject(new Error(message));
        this.finish();
      });
      child.once('spawn', () => {
        this.tree.attach(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.once('close', () => this.finish());
      child.stdout!.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            this.onerror?.(err as Error); // one bad line; keep reading the next ones
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr!.setEncoding('utf8').on('data', (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
    });
  }

  private spawnChild(): ChildProcess {
    const programFd = this.options.seccomp ? openProgramFd(this.options.seccomp) : undefined;
    try {
      return spawn(this.options.command, [...this.options.args], {
        cwd: this.options.cwd,
        env: { ...this.options.env, ...this.tree.env() },
        stdio: ['pipe', 'pipe', 'pipe', ...(programFd === undefined ? [] : [programFd])],
        // Its own session and process group: the terminal's Ctrl-C does not reach it, and the group can be signalled as one.
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
    } finally {
      // The child holds its own copy once spawned.
      closeProgramFd(programFd);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || stdin.destroyed) return reject(new Error('the server process is not running'));
      if (stdin.write(lazyChunk.mcp().serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server: stdin closed (a polite server exits), then SIGTERM to its tree, then SIGKILL until nothing is left. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (this.exit === undefined) {
      child.stdin?.end();
      if (!(await settlesWithin(this.exited, GRACE_MS))) {
        this.tree.signal('SIGTERM');
        await settlesWithin(this.exited, GRACE_MS);
      }
    }
    // Whatever it started (grandchildren of an npx wrapper, a daemon it forked) goes too.
    await this.tree.killAll();
    await settlesWithin(this.exited, GRACE_MS);
    this.finish();
  }

  /** Synchronous last resort when this process exits: no waiting is possible then. */
  killNow(): void {
    if (this.child && this.exit === undefined) this.tree.signal('SIGKILL');
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    t.unref?.();
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
