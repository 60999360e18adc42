/**
 * A run as a Markdown document for people (the audit JSON is for machines): the goal and its
 * figures, then the timeline (timeline.ts) and the run's memory. Everything the model, a file or a
 * command wrote is inert in any Markdown viewer: prose has `<`, `&` and link brackets escaped, and
 * code, arguments, results and patches sit in fences longer than any backtick run inside them.
 */
import type { RunTimelineView, TimelineItem } from '../../protocol/history';
import { runTimeline } from './timeline';
import type { RunDetail } from '../history/types';

export function runToMarkdown(d: RunDetail): string {
  return timelineToMarkdown(runTimeline(d));
}

export function timelineToMarkdown(t: RunTimelineView): string {
  const r = t.run;
  const out: string[] = [
    `# ${inline(r.goal)}`,
    '',
    `- Status: ${r.status}`,
    `- Started: ${iso(r.startedAt)}${r.endedAt !== null ? `, ended ${iso(r.endedAt)} (${duration(r.endedAt - r.startedAt)})` : ''}`,
    `- Models: ${r.models.length ? r.models.map(inline).join(', ') : 'unknown'}`,
    `- Tokens: ${r.tokensIn.toLocaleString('en-US')} in, ${r.tokensOut.toLocaleString('en-US')} out; cost $${r.costUsd.toFixed(4)}`,
    `- Steps: ${r.steps}; patches: ${r.patches}; test runs: ${r.testRuns}`,
    `- Run id: \`${r.id}\``,
    '',
    '## Timeline',
    '',
  ];
  for (const item of t.items) out.push(...itemMarkdown(item), '');
  if (t.observations.length) {
    out.push('## Memory (observations and Q&A)', '');
    for (const o of t.observations) {
      out.push(
        `- **${o.type === 'qa' ? 'Q&A' : `Observation${o.tool ? ` (${inline(o.tool)})` : ''}`}** ${iso(o.time)}${o.path ? ` \`${o.path.replace(/`/g, "'")}\`` : ''}: ${inline(o.text)}`,
      );
      out.push(...fenced(o.detail, 'text', '  '));
    }
    out.push('');
  }
  return out.join('\n');
}

function itemMarkdown(i: TimelineItem): string[] {
  const at = `${time(i.time)}`;
  switch (i.kind) {
    case 'message':
      return [`### ${at} ${i.role === 'user' ? 'User' : i.role === 'assistant' ? 'Model' : 'System'}`, '', prose(i.text)];
    case 'tool':
      return [
        `### ${at} Tool: ${inline(i.tool)}${i.durationMs !== null ? ` (${duration(i.durationMs)})` : ''}`,
        '',
        ...(i.args ? ['Arguments:', '', ...fenced(i.args, 'json')] : []),
        '',
        'Result:',
        '',
        ...fenced(i.result, 'text'),
      ];
    case 'patch':
      return [
        `### ${at} Patch to ${i.files.map(inline).join(', ')}: ${i.appliedAt === null ? 'not applied' : i.undoneAt !== undefined ? 'applied, then undone by the user' : i.reappliedAt !== undefined ? 'applied, later applied again by the user' : 'applied'}`,
        '',
        ...i.hunks.map(
          (h) =>
            `- \`${h.id.replace(/`/g, "'")}\`${h.oldStart !== undefined ? ` (lines ${h.oldStart}-${h.oldStart + Math.max(0, (h.oldLines ?? 1) - 1)})` : ''}: ${h.state}${h.reason ? `: ${inline(h.reason)}` : ''}`,
        ),
      ];
    case 'test':
      return [
        `### ${at} Tests: ${inline(i.command)}: exit ${i.exitCode ?? 'none (stopped)'} in ${duration(i.durationMs)} (${i.trigger})`,
        '',
        ...(i.summary ? [prose(i.summary), ''] : []),
        ...fenced(i.outputTail, 'text'),
      ];
    case 'policy':
      return [
        i.userAnswer
          ? `- ${at} The user ${i.verdict === 'allow' ? 'approved' : 'declined'} (${i.policyKind}): ${inline(i.subject)}`
          : `- ${at} Policy ${i.verdict} (${i.policyKind}${i.rule ? `, rule ${inline(i.rule)}` : ''}): ${inline(i.subject)}: ${inline(i.reason)}`,
      ];
    case 'summary':
      return [`### ${at} Summary (fast model)`, '', `Question: ${inline(i.question)}`, '', prose(i.text)];
  }
}

/** One line of untrusted text: no HTML, no link, no line break. */
function inline(s: string): string {
  return escape(s.replace(/\s+/g, ' ').trim());
}

/** Untrusted prose: its Markdown stays (emphasis, lists), its HTML and links do not. */
function prose(s: string): string {
  return escape(s);
}

function escape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([[\]])/g, '\\$1');
}

function fenced(text: string, lang: string, indent = ''): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${indent}${fence}${lang}`, ...text.split('\n').map((l) => `${indent}${l}`), `${indent}${fence}`];
}

function iso(t: number): string {
  return new Date(t).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

function time(t: number): string {
  return new Date(t).toISOString().slice(11, 19);
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
