// The rules files sit in the system prompt, which compaction keeps whole: after a summary they are
// still there word for word, also those a file the run touched brought in mid-run (until a
// compaction those ride in the result of the call that touched their file, so the prompt's cached
// prefix is not rewritten; the compaction, which rewrites the conversation anyway, puts them in the
// system prompt before it could summarize that result away).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings';
import type { CompactionReport } from '../../../src/core/context/contextManager';
import { isSummary } from '../../../src/core/context/compaction';
import { createRunContext } from '../../../src/core/context/runContext';
import { loadSkillCatalog } from '../../../src/core/context/skills/skillCatalog';
import { TokenCalibration } from '../../../src/core/context/tokenCounter';
import type { CompleteRequest } from '../../../src/core/llm/modelClient';
import type { ModelTurn } from '../../../src/core/llm/types';
import { pathPolicyOf } from '../../../src/core/tools/paths';
import { tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const ROOT_RULES = 'Always run `make lint` before finishing.\nNever touch vendor/.\n';
const NESTED_RULES = 'In packages/api, every handler returns a Result, never throws.\n';
const GLOB_RULES = 'SQL files: uppercase keywords.\n';

test('compaction summarizes the work but the rules, root and nested and globbed, survive verbatim in the system prompt', async () => {
  const ws = tempWorkspace({
    'AGENTS.md': ROOT_RULES,
    'packages/api/AGENTS.md': NESTED_RULES,
    '.github/instructions/sql.instructions.md': `---\napplyTo: "**/*.sql"\n---\n${GLOB_RULES}`,
  });
  try {
    const reports: CompactionReport[] = [];
    const warnings: string[] = [];
    const model = {
      modelFor: () => 'main',
      contextWindow: () => ({ tokens: 100_000, known: true }),
      async complete(req: CompleteRequest): Promise<ModelTurn> {
        return {
          role: req.role ?? 'fast',
          model: 'm',
          text: 'read some files',
          toolCalls: [],
          invalidToolCalls: [],
          finishReason: 'stop',
          rawFinishReason: 'stop',
          usage: { promptTokens: 10, completionTokens: 5, estimated: false },
          attempts: 1,
        };
      },
    };
    const pathPolicy = pathPolicyOf(fakeToolContext(ws.root));
    const skills = await loadSkillCatalog({});
    const { conversation, context, rules } = await createRunContext(
      {
        root: ws.root,
        goal: 'fix the api',
        mode: 'auto',
        facts: { name: 'ws', platform: 'linux', git: { isRepo: false, head: null, branch: null, dirty: [] }, testCommands: [], afterEdit: false, topLevel: [] },
        basePrompt: 'You are a test agent.',
        settings: { ...DEFAULT_SETTINGS, context: { maxTokens: 3_000, maxTokensByModel: {} } },
        model,
        pathPolicy,
        calibration: new TokenCalibration(),
        onCompacted: (r) => reports.push(r),
        warn: (m) => warnings.push(m),
      },
      skills,
      [],
    );
    assert.deepEqual(
      rules.initial.map((r) => r.rule.path),
      ['AGENTS.md'],
    );
    const added = await rules.noteFiles(['packages/api/src/handler.ts', 'db/001.sql']);
    assert.deepEqual(
      added.map((r) => r.rule.path),
      ['packages/api/AGENTS.md', '.github/instructions/sql.instructions.md'],
    );
    for (let i = 0; i < 10; i++) {
      const id = `c${i}`;
      conversation.addAssistant('', [{ id, name: 'read_file', argumentsJson: JSON.stringify({ path: `f${i}.ts` }) }]);
      conversation.addToolResult(id, `${id}: ${'x'.repeat(1_500)}`);
    }
    const sent = await context.prepare(new AbortController().signal);
    assert.equal(reports.length, 1, 'a compaction ran');
    assert.ok(reports[0]!.summarizedMessages > 0);
    assert.ok(sent.messages.some(isSummary), 'the work is summarized');
    const system = sent.messages[0]!;
    assert.equal(system.role, 'system');
    for (const text of [ROOT_RULES, NESTED_RULES, GLOB_RULES]) assert.ok(system.content!.includes(text.trim()), `kept verbatim: ${text}`);
    assert.deepEqual(warnings, []);
  } finally {
    ws.cleanup();
  }
});
