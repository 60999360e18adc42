/** A patch tool under test: it runs a whole corpus and reports one result per case id. */
import type { BenchCase } from '../kinds/types';

export interface ToolResult {
  status: 'applied' | 'refused';
  /** The complete file set after the patch (only when applied). */
  files?: Record<string, string>;
  error?: string;
  /** Time for this case: in-process apply time, or the spawned process's wall time. */
  ms: number;
}

export interface Tool {
  /** Short column name. */
  name: string;
  /** What exactly was run, for the legend. */
  command: string;
  /** Whether `ms` includes spawning a process (footnote). */
  spawns: boolean;
  /** False for formats the tool cannot read: those cells are n/a, not refusals. */
  supports(c: BenchCase): boolean;
  runAll(cases: BenchCase[], onProgress?: (done: number) => void): Promise<Map<string, ToolResult>>;
}
