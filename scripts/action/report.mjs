// What the GitHub Action reports from a run's result event (docs/api.md): the job summary in
// Markdown (what changed, the tests, the usage per model).

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function summaryMarkdown({ goal, finished, exitCode, stat, patchFile }) {
  const lines = [`## PatchPilot: ${finished ? cell(finished.status) : 'no result'} (exit ${exitCode})`, '', `**Goal:** ${cell(goal)}`, ''];
  if (finished) {
    lines.push(`**Tests after the last edit:** ${cell(finished.tests ?? 'not run')} · **Steps:** ${finished.steps}`, '');
    lines.push(`**Why it ended:** ${cell(finished.reason)}`, '');
    if (finished.summary) lines.push('### Summary', '', finished.summary, '');
  }
  lines.push('### Changes', '', stat ? ['```', stat, '```'].join('\n') : 'No file changed.', '', `The whole diff: \`${patchFile}\`.`, '');
  const roles = finished?.usage ? [finished.usage.reasoning, finished.usage.fast].filter((r) => r && r.requests > 0) : [];
  if (roles.length) {
    lines.push('### Usage', '', '| model | requests | prompt tokens | cached | completion tokens | cost (USD) |', '|---|---:|---:|---:|---:|---:|');
    for (const r of roles)
      lines.push(
        `| ${cell(r.model)} | ${r.requests} | ${r.promptTokens} | ${r.cachedTokens ?? 0} | ${r.completionTokens} | ${r.cost === undefined ? 'unknown' : r.cost.toFixed(4)} |`,
      );
    lines.push('');
  }
  return lines.join('\n') + '\n';
}
