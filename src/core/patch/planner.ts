import type { ApplyOptions, ParsedPatch } from './types';
import { applyParsedPatch, type Plan, type PlanExtras } from './plan';

/**
 * Where the PatchManager computes a plan (pure CPU work on texts it already read): inline by
 * default; the VS Code host passes an OffThreadPlanner so a large patch never blocks the extension
 * host's thread. Any planner must give the same Plan as `applyParsedPatch`.
 */
export interface PlanJob {
  parsed: ParsedPatch;
  files: ReadonlyMap<string, string>;
  options: ApplyOptions;
  extras: PlanExtras;
}

export interface PatchPlanner {
  plan(job: PlanJob): Promise<Plan>;
}

export const inlinePlanner: PatchPlanner = {
  plan: (job) => Promise.resolve(applyParsedPatch(job.parsed, job.files, job.options, job.extras)),
};

/** Characters the engine will read: the touched files plus the hunk lines. */
export function workSize(job: PlanJob): number {
  let size = 0;
  for (const text of job.files.values()) size += text.length;
  for (const f of job.parsed.files) for (const h of f.hunks) for (const l of h.lines) size += l.text.length + 1;
  return size;
}
