/** A real temp workspace next to a real "outside" folder (standing in for ~/.ssh, ~/.aws, /etc). */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Fixture {
  base: string;
  ws: string;
  outside: string;
  file(rel: string, content?: string): string;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-path-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE KEY');
  mkdirSync(path.join(outside, 'aws'));
  writeFileSync(path.join(outside, 'aws', 'credentials'), 'AKIA...');
  return {
    base,
    ws,
    outside,
    file(rel, content = 'x') {
      const p = path.join(ws, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
      return p;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
