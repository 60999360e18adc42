import { jsdiff } from './jsdiff';
import { patchpilot } from './patchpilot';
import { gitApply, gitApplyLax, gnuPatch } from './spawned';
import type { Tool } from './types';

/** Table column order: PatchPilot first, then the baselines. */
export const TOOLS: readonly Tool[] = [patchpilot, gitApply, gitApplyLax, gnuPatch, jsdiff];
