// What the GitHub Action reports from a run's result event: token and cost totals, and the job
// summary in Markdown (what changed, the tests, the usage per model).

/** Prompt plus completion tokens of every model role, and the cost when every price is known. */
export function totals(usage) {
  const roles = usage ? [usage.reasoning, usage.fast].filter((r) => r && r.requests > 0) : [];
  const tokens = roles.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0);
  const cost = usage?.totalCost ?? (roles.length && roles.every((r) => r.cost !== undefined) ? roles.reduce((n, r) => n + r.cost, 0) : undefined);
  return { tokens, cost };
}

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
