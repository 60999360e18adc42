// The ports are the contract every host implements: they may name a domain's types only through that
// domain's vocabulary file (`<domain>/types.ts`), never its implementation modules, so a port does
// not move when a client, a parser or a store is rewritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const portsDir = path.resolve(__dirname, '../../../src/core/ports');
// Domains whose vocabulary sits in a named file rather than a types.ts: the agent's events (src/protocol,
// zero imports), the settings, the command guard's options, the offered test command.
const VOCABULARY = new Set(['../../protocol/agentEvents', '../config/settings', '../sandbox/protectedGuard', '../tools/detectedTests']);

test('ports import only from each other and from <domain>/types', () => {
  const offenders: string[] = [];
  for (const name of readdirSync(portsDir).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(path.join(portsDir, name), 'utf8');
    for (const m of text.matchAll(/\b(?:from\s+|import\()'([^']+)'/g)) {
      const spec = m[1]!;
      if (spec.startsWith('./')) continue;
      if (/^\.\.\/[a-zA-Z]+\/types$/.test(spec) || VOCABULARY.has(spec)) continue;
      offenders.push(`${name}: ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});
