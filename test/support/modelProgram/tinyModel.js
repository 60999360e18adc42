#!/usr/bin/env node
// A model served by a local program, for tests of patchpilot.llm.command: reads one OpenAI
// chat-completions request (JSON) on stdin, streams the reply on stdout.
//   node tinyModel.js MODE [LOG]
// MODE: sse (SSE `data:` lines, text then a tool call), tight (the same without blank lines between
// events), jsonl (the same as plain JSON lines), pretty (one whole chat.completion, pretty-printed),
// agent (fixes add.js: read_file, then propose_patch, then finish, by what the conversation shows),
// fail (a message on stderr, exit 3), hang (reads, then says nothing), stall (a first chunk, then nothing), garbage (a line that is
// neither SSE nor JSON). LOG: a file each request is appended to (one JSON per line).
const fs = require('node:fs');
const [mode, log] = process.argv.slice(2);

let input = '';
process.stdin.setEncoding('utf8').on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const request = JSON.parse(input);
  if (log) fs.appendFileSync(log, JSON.stringify(request) + '\n');
  const chunk = (delta, finish = null) => ({
    id: 'chatcmpl-local',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const usage = {
    id: 'chatcmpl-local',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model,
    choices: [],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
  const toolCall = (id, name, args) => [
    chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }),
    chunk({}, 'tool_calls'),
  ];
  // sse: as an OpenAI server sends it; tight: `data:` lines without the blank lines; jsonl: bare JSON lines.
  const send = (chunks, format) => {
    const line = (text) => (format === 'jsonl' ? `${text}\n` : format === 'tight' ? `data: ${text}\n` : `data: ${text}\n\n`);
    for (const c of chunks) process.stdout.write(line(JSON.stringify(c)));
    process.stdout.write(line('[DONE]'));
  };
  switch (mode) {
    case 'sse':
    case 'tight':
    case 'jsonl':
      return send(
        [chunk({ role: 'assistant', content: 'Reading ' }), chunk({ content: 'the file.' }), ...toolCall('call_1', 'read_file', '{"path":"add.js"}'), usage],
        mode,
      );
    case 'agent': {
      const tools = request.messages
        .filter((m) => m.role === 'tool')
        .map((m) => m.content)
        .join('\n');
      if (!tools) return send([chunk({ role: 'assistant', content: 'Let me look.' }), ...toolCall('call_r', 'read_file', '{"path":"add.js"}'), usage], 'sse');
      if (!/applied|dry run|proposed/i.test(tools)) {
        const patch = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n';
        return send([...toolCall('call_p', 'propose_patch', JSON.stringify({ patch })), usage], 'sse');
      }
      return send([...toolCall('call_f', 'finish', JSON.stringify({ summary: 'add() subtracted; the patch makes it add.' })), usage], 'sse');
    }
    case 'pretty':
      // Not streamed: one whole chat.completion object, pretty-printed over many lines.
      process.stdout.write(
        JSON.stringify(
          {
            id: 'chatcmpl-local',
            object: 'chat.completion',
            created: 0,
            model: request.model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: 'Reading the file.',
                  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"add.js"}' } }],
                },
                finish_reason: 'tool_calls',
              },
            ],
            usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
          },
          null,
          2,
        ) + '\n',
      );
      break;
    case 'fail':
      process.stderr.write('tinyModel: cannot reach the upstream model\n');
      process.exit(3);
      break;
    case 'stall':
      // Starts answering, then goes quiet for good.
      process.stdout.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: 'Thinking about' }))}\n\n`);
      setInterval(() => {}, 1000);
      break;
    case 'hang':
      setInterval(() => {}, 1000);
      break;
    case 'garbage':
      process.stdout.write('Loading weights... done\n');
      break;
    default:
      process.stderr.write(`unknown mode ${mode}\n`);
      process.exit(2);
  }
});
