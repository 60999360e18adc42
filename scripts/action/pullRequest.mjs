// The action's create-pr step: the run's changes committed on a new branch (made from the tree of
// changes.mjs, so the checked-out branch, its index and working tree stay as they are), the branch
// pushed, and a pull request opened through GitHub's REST API with the run's summary and usage.
// The token goes to git's push and the API request only; the agent's process never had it.
import { spawnSync } from 'node:child_process';
import { git } from './changes.mjs';

/** Conclusions worth a pull request: a draft when the run's tests fail, none when it did not finish. */
const PR_CONCLUSIONS = { success: 'ready', 'known-failures': 'ready', 'tests-failed': 'draft' };

/**
 * Opens the pull request, or says why not: `{ skipped }`, or `{ branch, url, number, draft }`.
 * Throws on a git or API failure (the caller reports it).
 */
export async function openPullRequest({ root, changes, result, goal, body, token, apiUrl, repository, branch, base, remote = 'origin' }) {
  const kind = PR_CONCLUSIONS[result?.conclusion];
  if (!kind) return { skipped: `the run ended ${result?.conclusion ?? 'without a result'}: no pull request` };
  if (!changes.diff) return { skipped: 'the run changed no file: no pull request' };
  if (!changes.head) return { skipped: 'the repository has no commit to branch from: no pull request' };
  if (!token) throw new Error('create-pr needs the github-token input');
  if (!apiUrl || !repository) throw new Error('create-pr needs GITHUB_API_URL and GITHUB_REPOSITORY (set by GitHub Actions)');
  const baseBranch = base || process.env.GITHUB_BASE_REF || currentBranch(root) || process.env.GITHUB_REF_NAME;
  if (!baseBranch) throw new Error('create-pr: cannot tell the base branch (detached HEAD): set the pr-base input');
  const head = branch || `patchpilot/${(result.runId ?? String(Date.now())).slice(0, 8)}`;
  git(root, ['check-ref-format', '--branch', head]);

  const title = `PatchPilot: ${firstLine(goal, 70)}`;
  const message = [
    title,
    '',
    result.summary ?? '',
    '',
    `Tests after the last edit: ${result.tests}.${result.runId ? ` PatchPilot run ${result.runId}.` : ''}`,
  ].join('\n');
  const commit = git(root, ['commit-tree', changes.tree, '-p', changes.head, '-F', '-'], commitEnv(), message).trim();
  git(root, [...pushAuth(root, remote, token), 'push', '--quiet', remote, `${commit}:refs/heads/${head}`]);

  const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/repos/${repository}/pulls`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ title, head, base: baseBranch, body, draft: kind === 'draft' }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`opening the pull request failed: HTTP ${response.status} ${answer.message ?? ''} (branch ${head} was pushed)`.trim());
  return { branch: head, commit, url: answer.html_url, number: answer.number, draft: kind === 'draft' };
}

function currentBranch(root) {
  return spawnSync('git', ['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}

/** The commit's author: the workflow's git identity if it set one, else GitHub Actions' bot. */
function commitEnv() {
  const env = { ...process.env };
  env.GIT_AUTHOR_NAME ||= 'github-actions[bot]';
  env.GIT_AUTHOR_EMAIL ||= '41898282+github-actions[bot]@users.noreply.github.com';
  env.GIT_COMMITTER_NAME ||= env.GIT_AUTHOR_NAME;
  env.GIT_COMMITTER_EMAIL ||= env.GIT_AUTHOR_EMAIL;
  return env;
}

/**
 * The token as git's HTTP header for an https remote, unless the checkout already keeps credentials
 * for it (actions/checkout's own extraheader: a second Authorization header would be refused).
 */
function pushAuth(root, remote, token) {
  const url = spawnSync('git', ['remote', 'get-url', remote], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (!/^https?:\/\//.test(url)) return [];
  const kept = spawnSync('git', ['config', '--get-regexp', '^http\\..*extraheader$'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (kept) return [];
  return ['-c', `http.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`];
}

function firstLine(text, max) {
  const line = text.split('\n', 1)[0].trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
