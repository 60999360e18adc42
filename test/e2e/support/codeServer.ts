// Starting a real VS Code (code-server 4.100.3 = VS Code 1.100.3) for one test.
//
//   codeServerEntry()               path of code-server's entry.js (installed by scripts/install-code-server.mjs)
//   e2eAvailability()               { run: true } or { run: false, reason }: the tests skip only when
//                                   code-server (or chromium) is missing AND PATCHPILOT_E2E is not '1'
//   createWorkspace(files?)         a fresh temp folder holding `files` (relative path -> text)
//   startCodeServer(options)        code-server on a free 127.0.0.1 port with a fresh user-data-dir and
//                                   extensions-dir, user settings written, the extension installed;
//                                   returns a CodeServer { url, port, workspace, userDataDir,
//                                   extensionsDir, logs(), extensionLog(), workbenchUrl(payload?), stop() }
//   installUnpackedExtension(dir, extensionsDir)  a fixture extension folder, copied whole as
//                                   <publisher>.<name>-<version> (PatchPilot itself comes from its VSIX)
//
// Options of startCodeServer (all optional):
//   workspace         folder to open (default: a fresh empty temp folder, removed on stop)
//   settings          extra user settings, e.g. { 'patchpilot.approval.mode': 'auto-edit' }
//   workspaceTrust    false (default): trust disabled, the folder is trusted; true: trust enabled and
//                     the folder opens in restricted mode (no startup prompt)
//   extension         'installed' (default): the packaged VSIX (patchpilot.vsix, packaged again when the
//                     build is newer) installed by code-server's installer (support/packagedExtension.ts);
//                     'development': nothing installed, pass extensionDevelopmentPath in the payload
//                     (see workbenchUrl); 'none'
//   extraExtensions   more unpacked extension folders to install (test fixtures)
//   env               extra environment for code-server and so for the extension host
//   enableProposedApi extension ids allowed to use proposed API (code-server's --enable-proposed-api),
//                     for fixtures that stand in for what only proposals offer (a language model provider)
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { installPackagedExtension } from './packagedExtension';
import { killTree, trackForExit } from './processes';

export const repoRoot = path.resolve(__dirname, '../../..');
export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM = process.env.PATCHPILOT_CHROMIUM ?? '/usr/bin/chromium';

function codeServerDir(): string {
  return process.env.PATCHPILOT_CODE_SERVER_DIR ? path.resolve(process.env.PATCHPILOT_CODE_SERVER_DIR) : path.join(repoRoot, '.vscode-test', 'code-server');
}

export function codeServerEntry(): string {
  return path.join(codeServerDir(), 'node_modules/code-server/out/node/entry.js');
}

function installed(): boolean {
  const stamp = path.join(codeServerDir(), '.installed');
  return existsSync(stamp) && existsSync(codeServerEntry()) && readFileSync(stamp, 'utf8').includes(CODE_SERVER_VERSION);
}

export type Availability = { run: true } | { run: false; reason: string };

/** Whether the real-VS-Code tests can run; when they cannot and PATCHPILOT_E2E=1, that is an error. */
export function e2eAvailability(): Availability {
  const problems: string[] = [];
  if (!installed()) problems.push(`code-server ${CODE_SERVER_VERSION} is not installed (run: node scripts/install-code-server.mjs)`);
  if (!existsSync(CHROMIUM)) problems.push(`no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set PATCHPILOT_CHROMIUM)`);
  if (!existsSync(path.join(repoRoot, 'dist/extension.js'))) problems.push('the extension is not built (run: npm run build)');
  if (problems.length === 0) return { run: true };
  const reason = problems.join('; ');
  if (process.env.PATCHPILOT_E2E === '1') throw new Error(`PATCHPILOT_E2E=1 but the real-VS-Code tests cannot run: ${reason}`);
  return { run: false, reason: `${reason}. Set PATCHPILOT_E2E=1 to make this an error.` };
}

export function createWorkspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-ws-'));
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return dir;
}

export function installUnpackedExtension(extensionDir: string, extensionsDir: string): string {
  const pkg = JSON.parse(readFileSync(path.join(extensionDir, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const target = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  mkdirSync(target, { recursive: true });
  cpSync(extensionDir, target, { recursive: true });
  registerInstalled(extensionsDir, target, `${pkg.publisher}.${pkg.name}`, pkg.version);
  return target;
}

/**
 * VS Code loads only the extensions its registry (extensions.json, written by its installer for the
 * packaged PatchPilot) lists: a fixture copied beside it is added to the registry the same way.
 */
function registerInstalled(extensionsDir: string, target: string, id: string, version: string): void {
  const registry = path.join(extensionsDir, 'extensions.json');
  if (!existsSync(registry)) return; // no registry yet: VS Code scans the folder
  const entries = (JSON.parse(readFileSync(registry, 'utf8')) as { identifier: { id: string } }[]).filter((e) => e.identifier.id !== id);
  const location = { $mid: 1, fsPath: target, external: `file://${target}`, path: target, scheme: 'file' };
  entries.push({
    identifier: { id },
    version,
    location,
    relativeLocation: path.basename(target),
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  } as never);
  writeFileSync(registry, JSON.stringify(entries));
}

export interface CodeServerOptions {
  workspace?: string;
  settings?: Record<string, unknown>;
  workspaceTrust?: boolean;
  extension?: 'installed' | 'development' | 'none';
  extraExtensions?: string[];
  env?: Record<string, string>;
  enableProposedApi?: string[];
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  readonly workspace: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly process: ChildProcess;
  /** code-server's stdout and stderr so far (for failure messages). */
  logs(): string;
  /** The tail of PatchPilot's own output channel in this server's extension hosts (for failure messages). */
  extensionLog(): string;
  /** The workbench URL opening the workspace; `payload` entries go into VS Code's URL payload. */
  workbenchUrl(payload?: [string, string][]): string;
  /** A vscode-remote:// URI for a path on this machine (what payload paths must be). */
  remoteUri(absPath: string): string;
  stop(): Promise<void>;
}

export function defaultUserSettings(workspaceTrust: boolean): Record<string, unknown> {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'chat.commandCenter.enabled': false,
    'security.workspace.trust.enabled': workspaceTrust,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
    'git.openRepositoryInParentFolders': 'never',
  };
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-cs-'));
  const userDataDir = path.join(base, 'user-data');
  const extensionsDir = path.join(base, 'extensions');
  const ownWorkspace = options.workspace === undefined;
  const workspace = options.workspace ?? createWorkspace();
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const trust = options.workspaceTrust ?? false;
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...defaultUserSettings(trust), ...options.settings }, null, 2));
  if ((options.extension ?? 'installed') === 'installed') installPackagedExtension(extensionsDir, codeServerEntry());
  for (const extra of options.extraExtensions ?? []) installUnpackedExtension(extra, extensionsDir);

  const args = [
    codeServerEntry(),
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(trust ? [] : ['--disable-workspace-trust']),
    ...(options.enableProposedApi ?? []).flatMap((id) => ['--enable-proposed-api', id]),
    workspace,
  ];
  const child = spawn(process.execPath, args, {
    cwd: base,
    env: {
      ...process.env,
      ...options.env,
      VSCODE_AGENT_FOLDER: path.join(base, 'agent'),
      XDG_DATA_HOME: path.join(base, 'xdg-data'),
      XDG_CONFIG_HOME: path.join(base, 'xdg-config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const untrack = trackForExit(child.pid!);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (child.pid !== undefined) await killTree(child.pid);
    untrack();
    if (process.env.PATCHPILOT_E2E_KEEP !== '1') {
      rmSync(base, { recursive: true, force: true });
      if (ownWorkspace) rmSync(workspace, { recursive: true, force: true });
    }
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('code-server did not start listening within 60 s')), 60_000);
      const onData = (): void => {
        const m = /HTTP server listening on https?:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited early (${code ?? signal})`));
      });
      onData();
    });
    await waitForHealth(port);
    const url = `http://127.0.0.1:${port}`;
    const remoteUri = (p: string): string => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
    return {
      url,
      port,
      workspace,
      userDataDir,
      extensionsDir,
      process: child,
      logs: () => output,
      extensionLog: () => extensionLogTail(userDataDir),
      remoteUri,
      workbenchUrl(payload) {
        let u = `${url}/?folder=${encodeURIComponent(workspace)}`;
        const all: [string, string][] = [['skipWelcome', 'true'], ...(payload ?? [])];
        u += `&payload=${encodeURIComponent(JSON.stringify(all))}`;
        return u;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- code-server output ---\n${output}`);
  }
}

/** The last lines of every PatchPilot.log under the user-data-dir's logs (one per extension host, reloads included). */
export function extensionLogTail(userDataDir: string, lines = 80): string {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && depth < 4) walk(full, depth + 1);
      else if (e.name === 'PatchPilot.log') found.push(full);
    }
  };
  walk(path.join(userDataDir, 'logs'), 0);
  return found
    .sort()
    .map((f) => `[${path.relative(userDataDir, f)}]\n${readFileSync(f, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

async function waitForHealth(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 2000 }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.on('timeout', () => req.destroy());
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`code-server on port ${port} is not healthy after 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
