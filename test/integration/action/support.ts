// Shared by the GitHub Action's tests: its entry run as GitHub runs it, and its GITHUB_OUTPUT file read back.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ENTRY = path.resolve(__dirname, '../../../scripts/action/entry.mjs');

export function runAction(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete clean.NODE_TEST_CONTEXT;
  delete clean.OPENAI_API_KEY;
  delete clean.PATCHPILOT_API_KEY;
  const child = spawn(process.execPath, [ENTRY], { env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export function outputsOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
