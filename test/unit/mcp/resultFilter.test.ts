// The filters every MCP call passes (src/core/mcp/resultFilter.ts), on a real temp workspace:
// arguments naming ignored paths (absolute, relative, file: URIs, inside an ignored folder, through
// a link), and results: text redacted like command output, embedded resources and resource links
// to ignored files withheld, structured content redacted, binary never dumped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpCallGuard } from '../../../src/core/mcp/resultFilter';
import { createCommandGuard } from '../../../src/core/tools/policyAdapters';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings';
import { tempWorkspace } from '../tools/helpers';

const SECRET = 'PP-UNIT-SECRET-0123456789';

describe('MCP call filters', () => {
  const ws = tempWorkspace({
    '.patchpilotignore': '.env\nprivate/\n',
    '.env': `API_TOKEN=${SECRET}\n`,
    'private/key.txt': `key: ${SECRET}-2\n`,
    'README.md': '# readme\n',
  });
  symlinkSync('.env', path.join(ws.root, 'env-link'));
  const guard = createMcpCallGuard({ root: ws.root, ...createCommandGuard(ws.root, DEFAULT_SETTINGS.policy, '.patchpilot/history.db') });

  test('arguments that name ignored paths, however written', () => {
    const args = {
      a: path.join(ws.root, '.env'),
      b: '.env',
      c: pathToFileURL(path.join(ws.root, 'private', 'key.txt')).href,
      nested: { list: ['README.md', 'private/other.txt', 'env-link'] },
      d: 'https://example.invalid/.env',
      e: 'just some text',
    };
    assert.deepEqual(guard.ignoredArguments(args).sort(), ['.env', 'env-link', 'private/key.txt', 'private/other.txt']);
    assert.deepEqual(guard.ignoredArguments({ path: 'README.md', outside: '/etc/passwd' }), []);
  });

  test('results: redacted text, withheld ignored resources, redacted structured content, no base64', async () => {
    const envUri = pathToFileURL(path.join(ws.root, '.env')).href;
    const { text, protectedChanges } = await guard.guarded(
      async () => ({
        content: [
          { type: 'text', text: `found API_TOKEN=${SECRET}` },
          { type: 'resource', resource: { uri: envUri, text: `API_TOKEN=${SECRET}` } },
          { type: 'resource', resource: { uri: 'private/key.txt', text: 'anything' } },
          { type: 'resource', resource: { uri: pathToFileURL(path.join(ws.root, 'README.md')).href, text: '# readme' } },
          { type: 'resource_link', uri: envUri, name: 'env' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
      { sandboxed: false },
    );
    assert.ok(!text.includes(SECRET), text);
    assert.match(text, /found \[redacted: content of \.env, which \.patchpilotignore hides\]/);
    assert.match(text, /\[resource \.env withheld: \.patchpilotignore \(or denyPaths\) hides it from the agent\]/);
    assert.match(text, /\[resource private\/key\.txt withheld/);
    assert.match(text, /README\.md\]\n# readme/);
    assert.match(text, /\[image image\/png, 3 bytes, not shown\]/);
    assert.deepEqual(protectedChanges, []);
    const structured = await guard.guarded(async () => ({ content: [], structuredContent: { token: SECRET } }), undefined);
    assert.ok(!structured.text.includes(SECRET), structured.text);
  });

  test('after', () => ws.cleanup());
});
