// `npm run package`: builds, writes patchpilot.vsix with vsce, and checks what it holds
// (scripts/lib/vsix.mjs). `npm test` runs it with --no-build after its own build, so a package that
// does not build or ships the wrong files fails the suite, not a user.
// Usage: node scripts/package.mjs [--no-build] [--out FILE]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vsixProblems, vsixReadme, zipEntries } from './lib/vsix.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = path.resolve(repo, outIndex >= 0 ? args[outIndex + 1] : 'patchpilot.vsix');

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: repo, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`package: ${command} ${commandArgs.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

if (!args.includes('--no-build')) run(process.execPath, ['scripts/build.mjs']);

// vsce reads --readme-path relative to the repository, so the scratch folder sits inside it (git-ignored).
mkdirSync(path.join(repo, '.cache'), { recursive: true });
const scratch = mkdtempSync(path.join(repo, '.cache', 'package-'));
try {
  const readme = path.join(scratch, 'README.md');
  writeFileSync(readme, vsixReadme(readFileSync(path.join(repo, 'README.md'), 'utf8')));
  // Written beside the target, then renamed: two test processes packaging at once never read half a file.
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.partial`);
  const vsce = path.join(repo, 'node_modules/@vscode/vsce/vsce');
  run(process.execPath, [
    vsce,
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--readme-path',
    path.relative(repo, readme),
    '--out',
    partial,
  ]);
  const problems = vsixProblems(zipEntries(partial));
  if (problems.length > 0) {
    rmSync(partial, { force: true });
    console.error(`package: the VSIX is not sound:\n  - ${problems.join('\n  - ')}`);
    process.exit(1);
  }
  renameSync(partial, out);
  const { names, bytes } = zipEntries(out);
  console.log(`package: ${path.relative(repo, out)}: ${names.length} files, ${(bytes / 1048576).toFixed(2)} MB, contents checked`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
