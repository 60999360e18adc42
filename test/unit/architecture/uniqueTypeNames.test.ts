// One name per thing: an exported type, interface, class or enum is declared once in src/ (and in
// webview-ui/), so a name read anywhere means one concept. Two things that differ get names that
// say how (ConversationSummary beside the model's Conversation); one thing used in two places is
// declared once and imported (a port re-exports its implementation's type).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const DECLARATION = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)/gm;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

test('every exported type name is declared in one file', () => {
  const where = new Map<string, string[]>();
  for (const file of [...sources(path.join(root, 'src')), ...sources(path.join(root, 'webview-ui'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(DECLARATION)) {
      const list = where.get(m[1]!) ?? [];
      list.push(path.relative(root, file));
      where.set(m[1]!, list);
    }
  }
  const twice = [...where].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
  assert.deepEqual(twice, [], 'give each its own name, or declare it once and import it');
});

// "Session" means one thing: a chat of runs (core/session/chatSession.ts: ChatSession, its options,
// a session loaded or resumed from the history). The guard's scan of one command, a patch under
// review, the rules of one run and the CLI's chat are named for what they are.
test('"session" names only the chat of runs', () => {
  const CHAT_SESSION = new Set(['ChatSession', 'ChatSessionOptions', 'ResumedSession', 'loadSession']);
  const EXPORT = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:interface|type|class|enum|function|const)\s+([A-Za-z_$][\w$]*)/gm;
  const other: string[] = [];
  for (const file of [...sources(path.join(root, 'src')), ...sources(path.join(root, 'webview-ui'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(EXPORT)) {
      if (/session/i.test(m[1]!) && !CHAT_SESSION.has(m[1]!)) other.push(`${m[1]} (${path.relative(root, file)})`);
    }
  }
  assert.deepEqual(other, [], 'name it for what it is; a "session" is a chat of runs');
});
