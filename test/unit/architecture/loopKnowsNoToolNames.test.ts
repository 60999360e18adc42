// The loop reads what a tool declares (Tool.loop: ends the run, carries a verdict, records a patch,
// is worth remembering), never its name: a new tool or an MCP tool with a familiar name cannot
// change how the loop behaves, and new capabilities attach to declarations, not to branches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createToolRegistry } from '../../../src/core/tools';

const dir = path.resolve(__dirname, '../../../src/core/orchestrator');

test('src/core/orchestrator names no built-in tool', () => {
  const names = createToolRegistry({ commands: true, web: true, history: true, memory: true, skills: true })
    .list()
    .map((t) => t.name);
  const offenders: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const name of names) if (new RegExp(`['"\`]${name}['"\`]`).test(text)) offenders.push(`${file}: '${name}'`);
  }
  assert.deepEqual(offenders, []);
});
