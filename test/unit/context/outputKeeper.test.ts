// A tool result over the run's cap enters the conversation cut, and the whole output is kept in a
// file under the state folder that read_file reads: the left-out lines come back exactly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Conversation } from '../../../src/core/context/conversation';
import { createOutputKeeper } from '../../../src/core/context/outputKeeper';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { readFileTool } from '../../../src/core/tools/readFile';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

describe('a cut tool result keeps its whole output for read_file', () => {
  test('the note points at a file read_file reads, holding the left-out lines', async () => {
    const ws = tempWorkspace({});
    try {
      const output = Array.from({ length: 3000 }, (_, i) => `test ${i + 1} ok`).join('\n');
      const conversation = new Conversation('system', 'goal', 4_000);
      conversation.keeper = createOutputKeeper(ws.root, '.patchpilot/history.db', 'run-1');
      const entered = conversation.addToolResult('c1', output, 'run_command');
      assert.ok(entered.length <= 4_000);
      const m = /lines (\d+)-(\d+) of 3,000 left out here .*kept in (\S+): call read_file with path "\3" and start_line=\1 end_line=\2/.exec(entered);
      assert.ok(m, entered.slice(0, 400));
      assert.equal(m[3], '.patchpilot/outputs/run-1/1-run_command.txt');
      assert.equal(readFileSync(path.join(ws.root, m[3]), 'utf8'), output);
      assert.match(readFileSync(path.join(ws.root, '.patchpilot/.gitignore'), 'utf8'), /^outputs\/$/m);
      const tools = new ToolRegistry([readFileTool]);
      const r = await tools.invoke('read_file', { path: m[3], start_line: Number(m[1]), end_line: Number(m[1]) + 1 }, fakeToolContext(ws.root));
      assert.match(r.output, new RegExp(`\\t${`test ${m[1]} ok`}\\n`));
    } finally {
      ws.cleanup();
    }
  });

  test('only the newest runs keep their outputs', () => {
    const ws = tempWorkspace({});
    try {
      for (let i = 0; i < 12; i++) createOutputKeeper(ws.root, '.patchpilot/history.db', `run-${i}`).keep('x', 'grep');
      const dir = path.join(ws.root, '.patchpilot', 'outputs');
      assert.equal(existsSync(path.join(dir, 'run-11')), true);
      assert.equal(existsSync(path.join(dir, 'run-0')), false);
    } finally {
      ws.cleanup();
    }
  });
});
