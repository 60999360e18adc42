/**
 * The files a checkpoint keeps, as the repository itself lists them: tracked and untracked, minus
 * what `.gitignore` ignores (tracked files included, as the ignore rules' walk leaves them out) and
 * minus what `.patchpilotignore` hides. Git answers from its index and its untracked cache, without a
 * stat of every folder or an ignore match per path in JavaScript, and never enters an ignored tree.
 */
import { IgnoreRules } from './ignoreRules';
import { SafeGit } from './safeGit';

/** undefined without a usable repository (none, broken, refused as tampered, no git binary): the caller walks. */
export async function listKeptByGit(root: string, rules: IgnoreRules, signal?: AbortSignal): Promise<string[] | undefined> {
  try {
    const opened = await SafeGit.open(root, signal);
    if (opened.kind !== 'repo') return undefined;
    const all = await opened.git.run('ls-files', ['-z', '--cached', '--others', '--exclude-standard']);
    // Tracked but matched by an ignore pattern, or deleted from the disk: the walk would not find them either.
    const ignoredTracked = await opened.git.run('ls-files', ['-z', '--cached', '--ignored', '--exclude-standard']);
    const deleted = await opened.git.run('ls-files', ['-z', '--deleted']);
    const leftOut = new Set([...ignoredTracked.split('\0'), ...deleted.split('\0')]);
    const agentIgnored = rules.agentFilter.snapshot();
    return [...new Set(all.split('\0'))].filter((f) => f && !leftOut.has(f) && !agentIgnored(f.replace(/\/$/, ''), f.endsWith('/')));
  } catch {
    return undefined;
  }
}
