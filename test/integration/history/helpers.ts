/** Bundles the child-process fixture with esbuild (plain node starts in ~50 ms; tsx would take ~400 ms per child). */
import { build } from 'esbuild';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { sqlWasmPath } from '../../../src/core/history/sqljs';

export interface Fixture {
  dir: string;
  writer: string;
  cleanup(): void;
}

export async function bundleFixture(): Promise<Fixture> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-hist-fixture-'));
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error' } as const;
  await Promise.all([
    build({ ...common, entryPoints: [path.join(__dirname, 'fixtures/writer.ts')], outfile: path.join(dir, 'writer.js') }),
    build({ ...common, entryPoints: [path.join(__dirname, '../../../src/core/history/worker/historyWorker.ts')], outfile: path.join(dir, 'historyWorker.js') }),
  ]);
  copyFileSync(sqlWasmPath(), path.join(dir, 'sql-wasm.wasm'));
  return { dir, writer: path.join(dir, 'writer.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function spawnWriter(fixture: Fixture, args: string[]): ChildProcess {
  return spawn(process.execPath, [fixture.writer, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves when the child prints the line; rejects if it exits first. */
export function waitForLine(child: ChildProcess, line: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for '${line}'; stderr: ${err}`)), timeoutMs);
    child.stderr!.on('data', (d) => (err += String(d)));
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.split('\n').includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!out.split('\n').includes(line)) reject(new Error(`child exited ${code} before '${line}'; stderr: ${err}`));
    });
  });
}

export function waitExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
