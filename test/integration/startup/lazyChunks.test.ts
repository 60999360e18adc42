// Load what is used: the built extension and `--help` evaluate none of the heavy libraries (the SDKs,
// catalogs, the shell parser, YAML, the JSON Schema validator, the Telegram client: dist/lazy/*.js,
// scripts/lib/lazyChunks.mjs), and a run loads the ones it uses at first use. What each process
// loaded is recorded from inside it by test/support/loadProbe.cjs (its require.cache at exit).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, call, runCli, skipWithoutBuild, withRepo } from '../agent/support';

const root = path.resolve(__dirname, '../../..');
const probe = path.join(root, 'test/support/loadProbe.cjs');
const extension = path.join(root, 'dist/extension.js');

interface Probed {
  processCpuMs: number;
  bundleCpuMs?: number;
  loaded: string[];
}

/** The lazy chunks (by name) a process loaded, from the probe's file. */
function chunksIn(probed: Probed): string[] {
  const lazy = path.join(root, 'dist', 'lazy') + path.sep;
  return probed.loaded.filter((f) => f.startsWith(lazy)).map((f) => path.basename(f, '.js'));
}

async function withProbe<T>(fn: (out: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-load-probe-'));
  try {
    return await fn(path.join(dir, 'probe.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function probeNode(args: string[], bundle = ''): Promise<Probed> {
  return withProbe((out) => {
    const env = { ...process.env, PP_LOAD_PROBE_OUT: out, PP_LOAD_PROBE_BUNDLE: bundle };
    const r = spawnSync(process.execPath, ['--require', probe, ...args], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(out, 'utf8')) as Probed;
  });
}

describe('lazy chunks (built bundles)', { skip: skipWithoutBuild }, () => {
  test('every chunk the build lists is in dist/lazy', async () => {
    const { LAZY_CHUNK_FILES } = (await import(path.join(root, 'scripts/lib/lazyChunks.mjs'))) as { LAZY_CHUNK_FILES: string[] };
    assert.ok(LAZY_CHUNK_FILES.length >= 7);
    for (const f of LAZY_CHUNK_FILES) assert.ok(existsSync(path.join(root, f)), `${f} was not built`);
  });

  test('requiring dist/extension.js (up to activate) loads no lazy chunk', async () => {
    const probed = await probeNode(['-e', '0'], extension);
    assert.ok(probed.loaded.includes(extension), 'the probe did not load the extension');
    assert.deepEqual(chunksIn(probed), []);
  });

  test('`patchpilot --help` and `patchpilot run --help` load no lazy chunk', async () => {
    for (const args of [['--help'], ['run', '--help'], ['serve', '--help'], ['mcp', '--help']]) {
      const probed = await probeNode([CLI, ...args]);
      assert.deepEqual(chunksIn(probed), [], args.join(' '));
    }
  });

  test('a run loads the OpenAI SDK and the schema validator at first use, and not the SDKs it does not use', async () => {
    const turns = [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'Read add.js.' })] }, expect: { lastMessageContains: 'exports.add' } },
    ];
    await withRepo(turns, async (workspace, server) => {
      await withProbe(async (out) => {
        const env = { NODE_OPTIONS: `--require ${probe}`, PP_LOAD_PROBE_OUT: out };
        const args = [
          '--goal',
          'read add.js',
          '--workspace',
          workspace,
          '--approve',
          'auto-edit',
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--json',
        ];
        const r = await runCli(args, { env });
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(server.mismatches, []);
        const chunks = chunksIn(JSON.parse(readFileSync(out, 'utf8')) as Probed);
        for (const used of ['openai', 'jsonSchema']) assert.ok(chunks.includes(used), `${used} not loaded: ${chunks.join(', ')}`);
        for (const unused of ['anthropic', 'mcp', 'telegram']) assert.ok(!chunks.includes(unused), `${unused} loaded: ${chunks.join(', ')}`);
      });
    });
  });
});
