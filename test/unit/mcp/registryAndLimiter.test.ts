import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Limiter } from '../../../src/core/base/limiter';
import { CancelledError } from '../../../src/core/base/cancellation';
import { McpApprovals } from '../../../src/core/approvals';
import { ToolRegistry, ok, type Tool } from '../../../src/core/tools';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const foreign = (name: string, schema: Record<string, unknown>): Tool => ({
  name,
  description: 'x',
  schema: schema as Tool['schema'],
  readOnly: false,
  foreignSchema: true,
  run: async (args) => ok(JSON.stringify(args)),
});

describe("ToolRegistry: a run's own tools and foreign schemas", () => {
  test("with() adds a run's tools without touching the base; only() picks a subset", async () => {
    const base = new ToolRegistry([{ name: 'a', description: 'a', schema: { type: 'object', properties: {} }, readOnly: true, run: async () => ok('a') }]);
    const run = base.with([foreign('mcp__s__t', { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] })]);
    assert.deepEqual(
      run.list().map((t) => t.name),
      ['a', 'mcp__s__t'],
    );
    assert.deepEqual(
      base.list().map((t) => t.name),
      ['a'],
    );
    assert.deepEqual(
      run
        .only(['mcp__s__t', 'missing'])
        .list()
        .map((t) => t.name),
      ['mcp__s__t'],
    );
    const ws = tempWorkspace();
    try {
      const ctx = fakeToolContext(ws.root);
      assert.match((await run.invoke('mcp__s__t', '{}', ctx)).output, /missing required argument "x"/);
      assert.equal((await run.invoke('mcp__s__t', '{"x": 1}', ctx)).output, '{"x":1}');
    } finally {
      ws.cleanup();
    }
  });

  test('foreign schemas with unknown keywords and formats compile; one that cannot compile lets arguments through to the server', async () => {
    const r = new ToolRegistry().with([
      foreign('odd', { type: 'object', properties: { when: { type: 'string', format: 'x-custom-date', 'x-ui': 'calendar' } } }),
      foreign('broken', { type: 'object', properties: { a: { type: 'nonsense' } } }),
    ]);
    const ws = tempWorkspace();
    try {
      const ctx = fakeToolContext(ws.root);
      assert.equal((await r.invoke('odd', '{"when": "tomorrow"}', ctx)).ok, true);
      assert.equal((await r.invoke('broken', '{"a": 1}', ctx)).ok, true);
    } finally {
      ws.cleanup();
    }
  });
});

describe('Limiter', () => {
  test('at most max tasks at once, the others in order', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        limiter.run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await new Promise((r) => setTimeout(r, 20));
          running--;
        }),
      ),
    );
    assert.equal(most, 2);
    assert.deepEqual(order, [1, 2, 3, 4, 5]);
  });

  test('a waiting task whose signal aborts never runs', async () => {
    const limiter = new Limiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await assert.rejects(second, CancelledError);
    release();
    await first;
    assert.equal(ran, false);
    assert.equal(limiter.running, 0);
  });
});

describe('McpApprovals: kept in the workspace, signed with a per-user key', () => {
  test('the key is created once, readable by its owner only; approvals survive a restart', () => {
    const ws = tempWorkspace();
    const user = mkdtempSync(path.join(tmpdir(), 'pp-key-'));
    try {
      const a = new McpApprovals({ root: ws.root, userStateDir: user });
      a.approve('s', { launch: 'l'.repeat(64), tools: { t: 'f'.repeat(64) } });
      assert.equal(statSync(path.join(user, 'mcp-approval.key')).mode & 0o777, 0o600);
      const again = new McpApprovals({ root: ws.root, userStateDir: user });
      assert.deepEqual(again.get('s')?.tools, { t: 'f'.repeat(64) });
      const text = readFileSync(path.join(ws.root, '.patchpilot', 'mcp-approvals.json'), 'utf8');
      assert.match(text, /"mac": "[0-9a-f]{64}"/);
      // Another workspace cannot borrow the entry: the workspace is part of what is signed.
      const other = tempWorkspace();
      try {
        cpSync(path.join(ws.root, '.patchpilot'), path.join(other.root, '.patchpilot'), { recursive: true });
        assert.equal(new McpApprovals({ root: other.root, userStateDir: user }).get('s'), undefined);
      } finally {
        other.cleanup();
      }
    } finally {
      ws.cleanup();
      rmSync(user, { recursive: true, force: true });
    }
  });
});

describe("the state folder ignores PatchPilot's own files", () => {
  test('approvals and the history are added to .patchpilot/.gitignore whichever comes first; a linked .gitignore is left alone', async () => {
    const { ignoreInStateFolder } = await import('../../../src/core/history/stateFolder');
    const ws = tempWorkspace();
    const user = mkdtempSync(path.join(tmpdir(), 'pp-key-'));
    try {
      new McpApprovals({ root: ws.root, userStateDir: user }).approve('s', { launch: 'l'.repeat(64), tools: null });
      const dir = path.join(ws.root, '.patchpilot');
      ignoreInStateFolder(dir, 'history.db*');
      ignoreInStateFolder(dir, 'history.db*');
      assert.equal(readFileSync(path.join(dir, '.gitignore'), 'utf8'), 'mcp-approvals.json*\n.gitignore\nhistory.db*\n');
      const outside = path.join(user, 'victim');
      writeFileSync(outside, 'keep\n');
      rmSync(path.join(dir, '.gitignore'));
      symlinkSync(outside, path.join(dir, '.gitignore'));
      ignoreInStateFolder(dir, 'other*');
      assert.equal(readFileSync(outside, 'utf8'), 'keep\n');
    } finally {
      ws.cleanup();
      rmSync(user, { recursive: true, force: true });
    }
  });
});
