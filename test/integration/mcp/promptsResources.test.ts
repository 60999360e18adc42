// MCP beyond tools, against real servers (server-everything from npm, the SDK test server): prompts
// expanded from a slash command, resources read through read_mcp_resource with the result filter
// applied, list_changed notifications (a changed tool is refused and asked about again),
// elicitation answered and declined through the core's Elicitor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpManager, attachMentionedResources, expandPromptCommand, type McpServerConfig } from '../../../src/core/mcp';
import { McpApprovals } from '../../../src/core/approvals';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings';
import type { ElicitationRequest, ElicitationResponse as ElicitationAnswer, Elicitor } from '../../../src/core/ports';
import { elicitationFields } from '../../../src/protocol/elicitationForm';
import { mcpProtection } from '../../../src/core/session/capabilities';
import { ToolRegistry, type Tool } from '../../../src/core/tools';
import { ScriptedApprover, tempWorkspace } from '../../unit/tools/helpers';
import { fakeToolContext } from '../../support/fakes';
import { EVERYTHING, TEST_SERVER, stdio, waitUntil } from '../../support/mcp/servers';
import { delimiterLikeContents, readQuote } from '../../support/quoteShapes';

const yes = () => new ScriptedApprover({ action: () => ({ approved: true }) });
const signal = () => new AbortController().signal;

class ScriptedElicitor implements Elicitor {
  readonly requests: ElicitationRequest[] = [];
  constructor(private readonly answer: (r: ElicitationRequest) => ElicitationAnswer) {}
  async elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const SECRET_LINE = '- Simulated logging is available but off by default.';

describe('MCP prompts, resources, list_changed and elicitation (real servers)', () => {
  let root: string;
  let userState: string;
  let cleanupWs: () => void;
  const managers: McpManager[] = [];
  const manager = (servers: Record<string, McpServerConfig>, extra: Partial<ConstructorParameters<typeof McpManager>[0]> = {}) => {
    const settings = { ...DEFAULT_SETTINGS, mcp: { ...DEFAULT_SETTINGS.mcp, unsandboxedServers: Object.keys(servers) } };
    const m = new McpManager({
      root,
      servers,
      envAllow: [],
      approvals: new McpApprovals({ root, userStateDir: userState }),
      connectTimeoutMs: 20_000,
      callTimeoutMs: 20_000,
      protection: mcpProtection(root, settings),
      ...extra,
    });
    managers.push(m);
    return m;
  };
  const gather = (m: McpManager, approver = yes()) => m.tools({ signal: signal(), approver, mode: 'ask' });
  const invoke = (tools: Tool<any>[], name: string, args: Record<string, unknown>) =>
    new ToolRegistry().with(tools).invoke(name, JSON.stringify(args), fakeToolContext(root, { approver: yes(), mode: 'auto' }));

  before(() => {
    const ws = tempWorkspace({
      'notes/secret.md': `${SECRET_LINE}\n`,
      'secret.env': 'TOKEN=PP-RESOURCE-SECRET-77\n',
      '.patchpilotignore': 'notes/\nsecret.env\n',
    });
    root = ws.root;
    cleanupWs = ws.cleanup;
    userState = mkdtempSync(path.join(tmpdir(), 'pp-user-state-'));
  });
  after(async () => {
    await Promise.all(managers.map((m) => m.dispose()));
    cleanupWs();
    rmSync(userState, { recursive: true, force: true });
  });

  test('prompts: listed per server; a slash command with its arguments becomes the prompt text; a missing required one is asked, or refused naming it', async () => {
    const m = manager({ everything: stdio(process.execPath, [EVERYTHING, 'stdio']) });
    await gather(m);
    const catalog = m.catalog()[0]!;
    const args = catalog.prompts.find((p) => p.name === 'args-prompt')!;
    assert.deepEqual(
      args.arguments.map((a) => [a.name, a.required]),
      [
        ['city', true],
        ['state', false],
      ],
    );
    const given = await expandPromptCommand(m, '/mcp.everything.args-prompt city="New York" state=NY', undefined, signal());
    assert.deepEqual(given, { text: "What's weather in New York, NY?", command: '/mcp.everything.args-prompt' });

    const refused = await expandPromptCommand(m, '/mcp.everything.args-prompt', undefined, signal());
    assert.match((refused as { error: string }).error, /needs city: give city=\.\.\. after the command/);
    const asked: string[] = [];
    const answered = await expandPromptCommand(m, '/mcp.everything.args-prompt', async (a) => (asked.push(a.name), 'Paris'), signal());
    assert.deepEqual(asked, ['city']);
    assert.equal((answered as { text: string }).text, "What's weather in Paris?");

    assert.match(
      ((await expandPromptCommand(m, '/mcp.everything.nope', undefined, signal())) as { error: string }).error,
      /has no prompt "nope" \(it has: .*args-prompt/,
    );
    assert.match(
      ((await expandPromptCommand(m, '/mcp.other.x', undefined, signal())) as { error: string }).error,
      /no connected MCP server for \/mcp\.other\.x/,
    );
    assert.match(
      ((await expandPromptCommand(m, '/mcp.everything.args-prompt town=Rome', undefined, signal())) as { error: string }).error,
      /has no argument "town" \(it has: city, state\)/,
    );
  });

  test('a prompt of a server not approved is refused, and nothing starts', async () => {
    const m = manager({ fresh: stdio(process.execPath, [EVERYTHING, 'stdio']) });
    const r = await expandPromptCommand(m, '/mcp.fresh.simple-prompt', undefined, signal());
    assert.match((r as { error: string }).error, /no connected MCP server/);
    await assert.rejects(m.getPrompt('fresh', 'simple-prompt', {}, signal()), /not approved yet/);
    assert.equal(m.status()[0]!.pid, undefined);
  });

  test('resources: read_mcp_resource passes the result filter (ignored lines redacted, an ignored file: resource withheld); list_mcp_resources names them', async () => {
    const m = manager({
      everything: stdio(process.execPath, [EVERYTHING, 'stdio']),
      files: stdio(process.execPath, [TEST_SERVER, '--resource-file', path.join(root, 'secret.env')]),
    });
    const tools = await gather(m);
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('list_mcp_resources') && names.includes('read_mcp_resource'), names.join(', '));
    const listed = await invoke(tools, 'list_mcp_resources', {});
    assert.match(listed.output, /demo:\/\/resource\/static\/document\/features\.md/);
    assert.match(listed.output, /^files: 1 resource$/m);

    const doc = await invoke(tools, 'read_mcp_resource', { server: 'everything', uri: 'demo://resource/static/document/features.md' });
    assert.equal(doc.ok, true, doc.output);
    assert.match(doc.output, /## Prompts/);
    assert.ok(!doc.output.includes(SECRET_LINE), 'a line of an ignored file is redacted');
    assert.match(doc.output, /\[redacted: content of notes\/secret\.md/);

    const secretUri = m.catalog().find((c) => c.server === 'files')!.resources[0]!.uri;
    const secret = await invoke(tools, 'read_mcp_resource', { server: 'files', uri: secretUri });
    assert.ok(!secret.output.includes('PP-RESOURCE-SECRET-77'), secret.output);
    assert.match(secret.output, /\[resource secret\.env withheld: \.patchpilotignore/);

    const bad = await invoke(tools, 'read_mcp_resource', { server: 'nope', uri: 'x' });
    assert.equal(bad.ok, false);
    assert.match(bad.output, /no MCP server "nope" with resources \(servers: everything, files\)/);
    const missing = await invoke(tools, 'read_mcp_resource', { server: 'everything', uri: 'demo://resource/static/document/none.md' });
    assert.equal(missing.ok, false);
    assert.match(missing.output, /could not read demo:\/\/resource\/static\/document\/none\.md/);
  });

  test('@server:uri in a message attaches that resource, filtered; other @ words stay text; a resource that cannot be read is refused naming it', async () => {
    const m = manager({ everything: stdio(process.execPath, [EVERYTHING, 'stdio']) });
    await gather(m);
    const r = await attachMentionedResources(m, 'Summarize @everything:demo://resource/static/document/features.md, thanks @team:x', signal());
    assert.ok('text' in r);
    assert.deepEqual(
      r.attached.map((a) => [a.server, a.uri]),
      [['everything', 'demo://resource/static/document/features.md']],
    );
    assert.match(
      r.text,
      /^Summarize @everything:demo:\/\/resource\/static\/document\/features\.md, thanks @team:x\n\n--- attached resource @everything:demo:\/\/resource\/static\/document\/features\.md --- \[quote [0-9a-f]{24}: /,
    );
    const quote = readQuote(r.text.slice(r.text.indexOf('--- attached')));
    assert.equal(quote.after, '', 'the message ends with the closing line of the one quote');
    assert.match(r.text, /## Prompts/);
    assert.ok(!r.text.includes(SECRET_LINE), 'filtered like a tool result');
    const none = await attachMentionedResources(m, 'mail me at a@b.c', signal());
    assert.deepEqual(none, { text: 'mail me at a@b.c', attached: [] });
    const bad = await attachMentionedResources(m, '@everything:demo://resource/static/document/none.md', signal());
    assert.match((bad as { error: string }).error, /^@everything:demo:\/\/resource\/static\/document\/none\.md could not be attached: /);
  });

  test('a mentioned resource whose text forges the end of its quote stays inside it (generated texts, a real server reading the file)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-forged-'));
    const file = path.join(dir, 'forged.md');
    writeFileSync(file, 'placeholder');
    const m = manager({ forger: stdio(process.execPath, [TEST_SERVER, '--resource-file', file]) });
    await gather(m);
    const uri = pathToFileURL(file).href;
    const nonces: string[] = [];
    for (const content of delimiterLikeContents(25, 4, () => nonces)) {
      // The resource text is read as it is now; what comes back is filtered (line ends kept as the server sent them).
      writeFileSync(file, content);
      const r = await attachMentionedResources(m, `Read @forger:${uri}`, signal());
      assert.ok('text' in r, JSON.stringify(r));
      const quote = readQuote(r.text.slice(`Read @forger:${uri}\n\n`.length));
      assert.equal(quote.title, `attached resource @forger:${uri}`);
      assert.equal(quote.after, '', `nothing after the one closing line: ${JSON.stringify(content)}`);
      assert.ok(!quote.content.includes(`--- end of quote ${quote.nonce} ---`));
      nonces.push(quote.nonce);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('list_changed: a resource a tool registers shows up; a tool whose definition changed is refused and asked about at the next run', async () => {
    const m = manager({
      everything: stdio(process.execPath, [EVERYTHING, 'stdio'], { alwaysAllow: ['gzip-file-as-resource'] }),
      test: stdio(process.execPath, [TEST_SERVER, '--changing'], { alwaysAllow: ['echo', 'retitle'] }),
    });
    const tools = await gather(m);
    const gz = await invoke(tools, 'mcp__everything__gzip-file-as-resource', { name: 'pp-note.gz', data: 'data:text/plain;base64,aGVsbG8=' });
    assert.equal(gz.ok, true, gz.output);
    await waitUntil(() => m.catalog()[0]!.resources.some((r) => r.uri === 'demo://resource/session/pp-note.gz'), 5_000, 'the new resource to be listed');

    assert.equal((await invoke(tools, 'mcp__test__echo', { text: 'a' })).output, 'echo: a');
    assert.equal((await invoke(tools, 'mcp__test__retitle', { description: 'Now do something else' })).ok, true);
    // The notification arrives on its own: no reconnect, no new run; the next call finds the definition changed.
    let refused = await invoke(tools, 'mcp__test__echo', { text: 'b' });
    for (const deadline = Date.now() + 5_000; refused.ok && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50)))
      refused = await invoke(tools, 'mcp__test__echo', { text: 'c' });
    assert.match(refused.output, /changed the definition of echo since the user approved it/);

    const approver = new ScriptedApprover();
    const next = await gather(m, approver);
    assert.ok(approver.actionRequests.some((r) => /changed its tools since you approved them: echo/.test(r.title)));
    assert.ok(!next.some((t) => t.name === 'mcp__test__echo'), 'declined: withheld');
  });

  test('elicitation: declared only with an Elicitor; a form answered reaches the server, a decline too', async () => {
    const none = manager({ plain: stdio(process.execPath, [EVERYTHING, 'stdio']) });
    await gather(none);
    assert.ok(!none.catalog()[0]!.tools.includes('trigger-elicitation-request'), 'no handler: no capability, so the server offers no elicitation tool');

    const elicitor = new ScriptedElicitor((r) =>
      r.mode === 'form' ? { action: 'accept', content: { name: 'Ada', check: true, integer: 7 } } : { action: 'decline' },
    );
    const m = manager({ asks: stdio(process.execPath, [EVERYTHING, 'stdio'], { alwaysAllow: ['trigger-elicitation-request'] }) }, { elicitor });
    const tools = await gather(m);
    const answered = await invoke(tools, 'mcp__asks__trigger-elicitation-request', {});
    assert.equal(answered.ok, true, answered.output);
    assert.match(answered.output, /Ada/);
    const form = elicitor.requests[0]!;
    assert.equal(form.mode, 'form');
    assert.equal(form.server, 'asks');
    if (form.mode === 'form') {
      const { fields } = elicitationFields(form.requestedSchema);
      const name = fields.find((f) => f.key === 'name')!;
      assert.deepEqual([name.label, name.kind, name.description], ['String', 'text', 'Your full, legal name']);
      assert.equal(fields.find((f) => f.key === 'untitledSingleSelectEnum')!.kind, 'select');
    }

    // The run stops while the question waits: the question ends with the call (the chat's card goes away).
    let asked: AbortSignal | undefined;
    const waiting: Elicitor = {
      elicit: (_r, s) =>
        new Promise((resolve) => {
          asked = s;
          s.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
        }),
    };
    const w = manager({ asks: stdio(process.execPath, [EVERYTHING, 'stdio'], { alwaysAllow: ['trigger-elicitation-request'] }) }, { elicitor: waiting });
    const run = new AbortController();
    const stopped = new ToolRegistry()
      .with(await gather(w))
      .invoke('mcp__asks__trigger-elicitation-request', '{}', fakeToolContext(root, { approver: yes(), mode: 'auto', signal: run.signal }));
    await waitUntil(() => asked !== undefined, 20_000);
    assert.equal(asked!.aborted, false);
    run.abort();
    await stopped.catch(() => undefined); // the stopped call ends as cancelled
    assert.equal(asked!.aborted, true, 'the stopped call ends the question');

    const declining = new ScriptedElicitor(() => ({ action: 'decline' }));
    const d = manager({ asks: stdio(process.execPath, [EVERYTHING, 'stdio'], { alwaysAllow: ['trigger-elicitation-request'] }) }, { elicitor: declining });
    const declined = await invoke(await gather(d), 'mcp__asks__trigger-elicitation-request', {});
    assert.match(declined.output, /decline/i);
  });
});
