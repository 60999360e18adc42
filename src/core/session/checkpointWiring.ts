/**
 * The workspace's checkpoint store for a wired agent: under `<root>/.patchpilot/checkpoints`, capped by
 * patchpilot.checkpoints.maxBytes, leaving out what git and `.patchpilotignore` ignore.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { Checkpointer } from '../checkpoint';
import { ChangeFeed } from '../fs/changeFeed';
import type { PatchPilotSettings } from '../config';
import { IgnoreRules } from '../git/ignoreRules';
import { listKeptByGit } from '../git/keptFiles';
import { repositoryObjects } from '../git/repositoryObjects';
import type { IgnoreFilter } from '../policy/path/ignoreFilter';

export const STATE_DIR = '.patchpilot';

/**
 * The workspace's one change feed (inotify), read by the checkpoints and the protected guard around
 * commands; started by its first reader, markers in the checkpoint store's folder.
 */
export function createChangeFeed(root: string): ChangeFeed {
  const real = realpathSync(root);
  return new ChangeFeed(real, path.join(real, STATE_DIR, 'checkpoints', 'feed'), STATE_DIR);
}

export function createCheckpointer(root: string, settings: PatchPilotSettings, ignore?: IgnoreFilter, feed?: ChangeFeed): Checkpointer | undefined {
  if (!settings.checkpoints.enabled) return undefined;
  const real = realpathSync(root);
  return new Checkpointer({
    root: real,
    stateDir: path.join(real, STATE_DIR),
    maxBytes: settings.checkpoints.maxBytes,
    ...(feed ? { feed } : {}),
    listKept: (signal) => listKeptByGit(real, new IgnoreRules(real, ignore), signal),
    objects: repositoryObjects(real),
    ignored: () => {
      const rules = new IgnoreRules(real, ignore);
      const agent = rules.agentFilter.snapshot();
      return (rel, isDir) => agent(rel, isDir) || rules.isGitIgnored(rel, isDir);
    },
  });
}
