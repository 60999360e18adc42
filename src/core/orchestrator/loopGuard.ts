import type { Tool, ToolResult } from '../tools/types';

/**
 * The loop guard (patchpilot.limits.maxRepeatedFailures): the same failing tool call (same tool, the
 * same arguments whatever their key order, the same failure output) made `max` times in a run stops
 * it, instead of letting a model pay for the same mistake until the step limit. A test verdict is
 * not a failed call (tests that still fail after an edit are work in progress, not a loop).
 */
export class RepeatedFailures {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A call's result; returns why the run stops when this failure has now been seen `max` times. */
  note(call: { name: string; argumentsJson: string }, tool: Tool<any> | undefined, result: ToolResult): string | undefined {
    if (result.ok || tool?.loop?.isVerdict?.(result)) return undefined;
    const key = JSON.stringify([call.name, canonicalArguments(call.argumentsJson), result.output]);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count < this.max) return undefined;
    const args = canonicalArguments(call.argumentsJson);
    return (
      `the same failing tool call was made ${count} times: ${call.name} ${args.length > 120 ? `${args.slice(0, 117)}...` : args} -> ` +
      `${firstLine(result.output)} (patchpilot.limits.maxRepeatedFailures is ${this.max})`
    );
  }
}

/** The arguments as JSON with keys sorted at every level, so {"a":1,"b":2} and {"b":2,"a":1} are one call. */
export function canonicalArguments(argumentsJson: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(argumentsJson || '{}')));
  } catch {
    return argumentsJson.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
