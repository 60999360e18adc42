// The container image built and run with podman, where podman can run (as root here: rootless podman
// is not what these machines have). No registry is reachable, so the Dockerfile's base is the stand-in
// scripts/container/rootfs-base.sh makes (Debian bookworm by debootstrap, this machine's Node 20),
// built once and kept as an image. Inside, a real `patchpilot run` in auto mode against the scripted
// model on the host's loopback: with podman's defaults bubblewrap cannot mount /proc, the entry script
// says so, and a command running workspace code is refused (nobody can approve it); with /proc unmasked
// the same command runs in the sandbox.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScriptedModelServer } from '../../support/scriptedModel';
import { CLI, skipWithoutBuild } from '../agent/support';
import { call, finish, turn } from '../agent/attacks/agent';

const REPO = path.resolve(__dirname, '../../..');
const BASE = 'localhost/patchpilot-test-base:node20-bookworm';
const IMAGE = `localhost/patchpilot:test-${process.pid}`;
/** The image's user (install.sh's useradd, the first one in the base). */
const IMAGE_UID = 1000;
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const podman = (args: string[], timeout = 120_000) => spawnSync('podman', args, { encoding: 'utf8', timeout, cwd: REPO });

/** podman without blocking the event loop: the scripted model server answers from this process. */
function podmanAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function whyNot(): string | false {
  if (skipWithoutBuild) return skipWithoutBuild;
  if (!has('podman')) return 'podman is not installed (apt-get install podman runc)';
  if (process.getuid?.() !== 0) return 'podman here runs as root; rootless podman is not set up on these machines';
  if (podman(['image', 'exists', BASE]).status !== 0 && !has('debootstrap')) return `no ${BASE} image and no debootstrap to make it`;
  return false;
}
const skip = whyNot();

/**
 * The run options podman needs on this machine: crun cannot raise the limits or join the hybrid
 * cgroups of the container these tests run in, runc with the limits lowered can. Tried in order.
 */
const RUNTIME_CHOICES = [[], ['--runtime', 'runc', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024']];

describe('the container image under podman', { skip }, () => {
  let runtime: string[] = [];
  before(
    () => {
      if (podman(['image', 'exists', BASE]).status !== 0) {
        const made = spawnSync('sh', ['scripts/container/rootfs-base.sh', BASE], { cwd: REPO, encoding: 'utf8', timeout: 900_000 });
        assert.equal(made.status, 0, `rootfs-base.sh failed:\n${made.stderr.slice(-2000)}`);
      }
      const works = RUNTIME_CHOICES.find((c) => podman(['run', '--rm', ...c, BASE, 'true']).status === 0);
      assert.ok(works, `podman cannot run a container here: ${podman(['run', '--rm', BASE, 'true']).stderr}`);
      runtime = works;
      const built = podman(['build', ...runtime, '--network', 'host', '--build-arg', `BASE_IMAGE=${BASE}`, '-t', IMAGE, '.'], 900_000);
      assert.equal(built.status, 0, `podman build failed:\n${built.stdout.slice(-3000)}\n${built.stderr.slice(-2000)}`);
    },
    { timeout: 1_800_000 },
  );
  after(() => podman(['rmi', '-f', IMAGE]));

  test('it runs patchpilot as an unprivileged user, and says when bubblewrap cannot work', () => {
    const version = podman(['run', '--rm', ...runtime, IMAGE, '--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout.trim());
    assert.match(version.stderr, /patchpilot-entry: bubblewrap does not work in this container \(bwrap: Can't mount proc/);
    const id = podman(['run', '--rm', ...runtime, '--entrypoint', 'id', IMAGE]);
    assert.match(id.stdout, new RegExp(`^uid=${IMAGE_UID}\\(patchpilot\\)`));
    const unmasked = podman(['run', '--rm', ...runtime, '--security-opt', 'unmask=ALL', IMAGE, '--version']);
    assert.equal(unmasked.status, 0, unmasked.stderr);
    assert.doesNotMatch(unmasked.stderr, /patchpilot-entry:/);
  });

  /** `patchpilot run` in the image on a fresh workspace; the tool result of one `node -e` command. */
  async function runInImage(securityOptions: string[]): Promise<{ result: string; stderr: string }> {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'pp-image-ws-'));
    writeFileSync(path.join(ws, 'package.json'), '{ "name": "demo", "version": "1.0.0" }\n');
    chownSync(ws, IMAGE_UID, IMAGE_UID);
    chownSync(path.join(ws, 'package.json'), IMAGE_UID, IMAGE_UID);
    const server = await ScriptedModelServer.start([turn(call('c1', 'run_command', { command: 'node -e "console.log(6 * 7)"' })), finish()]);
    try {
      const r = await podmanAsync([
        'run', '--rm', ...runtime, ...securityOptions, '--network', 'host', '-v', `${ws}:/workspace`, '-e', 'PATCHPILOT_API_KEY=test-key',
        IMAGE, 'run', '--goal', 'print the answer', '--approve', 'auto', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model',
      ]); // prettier-ignore
      const toolMessages = server.chatRequests.flatMap((req) => (req.body?.messages ?? []) as { role: string; content: unknown; tool_call_id?: string }[]);
      const result = toolMessages.find((m) => m.role === 'tool' && m.tool_call_id === 'c1');
      assert.ok(result, `no result for the command (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
      return { result: typeof result.content === 'string' ? result.content : JSON.stringify(result.content), stderr: r.stderr };
    } finally {
      await server.close();
      rmSync(ws, { recursive: true, force: true });
    }
  }

  test('with podman defaults, a command running workspace code is refused, never run unsandboxed', { timeout: 180_000 }, async () => {
    const { result, stderr } = await runInImage([]);
    assert.match(result, /nobody could approve it/);
    assert.doesNotMatch(result, /\n42/);
    assert.match(stderr, /commands are not sandboxed: bubblewrap does not work here/);
  });

  test('with /proc unmasked, the same command runs in the bubblewrap sandbox', { timeout: 180_000 }, async () => {
    const { result, stderr } = await runInImage(['--security-opt', 'unmask=ALL']);
    assert.match(result, /exit 0[^\n]*\n42/);
    assert.doesNotMatch(stderr, /not sandboxed/);
  });
});
