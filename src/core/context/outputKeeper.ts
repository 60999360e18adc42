/**
 * Where a tool's whole output goes when the model is shown only part of it: one file per cut
 * result under the state folder (`.patchpilot/outputs/<run>/<n>-<tool>.txt`), which read_file may
 * read like any workspace file, so "lines 41-960 left out" always comes with a way to read them.
 * Written through real folders only (attacks.state: never through a link the agent planted) and
 * kept out of git; only the newest runs' folders are kept.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ensureRealFolderChain, ignoreInStateFolder } from '../history/stateFolder';

export const OUTPUTS_DIR = 'outputs';
/** Runs whose kept outputs survive the next run's start. */
const RUNS_KEPT = 10;

export interface OutputKeeper {
  /** Keeps `text` whole and returns its workspace-relative path, or undefined when it cannot be written. */
  keep(text: string, tool: string): string | undefined;
}

/** `historyPath`: patchpilot.history.path; the outputs live beside the history database when it is inside the workspace. */
export function createOutputKeeper(root: string, historyPath: string, runId?: string | null): OutputKeeper {
  const stateDir = stateDirFor(root, historyPath);
  const runDir = path.join(stateDir, OUTPUTS_DIR, safeName(runId ?? `run-${Date.now()}-${randomUUID().slice(0, 8)}`));
  let count = 0;
  let pruned = false;
  return {
    keep(text, tool) {
      try {
        ensureRealFolderChain(root, runDir);
        ignoreInStateFolder(stateDir, `${OUTPUTS_DIR}/`);
        if (!pruned) pruneOldRuns(path.dirname(runDir), path.basename(runDir));
        pruned = true;
        const file = path.join(runDir, `${++count}-${safeName(tool)}.txt`);
        // wx: a new file each time; O_EXCL never follows a link or overwrites what is already there.
        fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
        return path.relative(root, file).split(path.sep).join('/');
      } catch {
        return undefined;
      }
    },
  };
}

function stateDirFor(root: string, historyPath: string): string {
  const dir = path.dirname(path.resolve(root, historyPath));
  const rel = path.relative(root, dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? dir : path.join(root, '.patchpilot');
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || 'output';
}

/** Leaves the newest RUNS_KEPT run folders (by modification time), this run's always. */
function pruneOldRuns(outputsDir: string, current: string): void {
  const runs = fs
    .readdirSync(outputsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== current)
    .map((e) => ({ name: e.name, time: fs.statSync(path.join(outputsDir, e.name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const old of runs.slice(RUNS_KEPT - 1)) fs.rmSync(path.join(outputsDir, old.name), { recursive: true, force: true });
}
