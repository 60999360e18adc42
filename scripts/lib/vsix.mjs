// What a VSIX is and must hold: the README vsce ships (relative links made explicit, since the
// extension names no repository to resolve them against), a reader of the zip's file list, and the
// contents rules `npm run package` and `npm test` check on every build.
import { readFileSync } from 'node:fs';
import { LAZY_CHUNK_FILES } from './lazyChunks.mjs';

/** Files a working extension needs (paths inside the zip's `extension/` folder). */
export const REQUIRED_FILES = [
  'package.json',
  'readme.md',
  'dist/extension.js',
  'dist/historyWorker.js',
  'dist/patchWorker.js',
  // The heavy libraries, required at first use (scripts/lib/lazyChunks.mjs).
  ...LAZY_CHUNK_FILES,
  'dist/sql-wasm.wasm',
  'dist/tree-sitter.wasm',
  'dist/tree-sitter-bash.wasm',
  'dist/webview/chat.js',
  'dist/webview/chat.css',
  'dist/webview/history.js',
  'dist/webview/codicon.css',
  'dist/webview/codicon.ttf',
  'media/patchpilot-icon.png',
  'media/patchpilot.svg',
];

/** Folders that must be present with at least one file (the sample project, the bundled skills). */
export const REQUIRED_FOLDERS = ['media/sample/', 'skills/'];

/** What must never ship: sources, tests, tooling, source maps, the CLI (the npm package's bin), caches. */
export const FORBIDDEN = [
  { pattern: /^src\//, why: 'TypeScript sources' },
  { pattern: /^test\//, why: 'tests' },
  { pattern: /^webview-ui\//, why: 'webview sources (the bundles are in dist/webview)' },
  { pattern: /^node_modules\//, why: 'dependencies (everything runs from the esbuild bundles)' },
  { pattern: /\.map$/, why: 'source maps' },
  { pattern: /^dist\/cli\.js$/, why: 'the CLI (the extension never runs it)' },
  { pattern: /(^|\/)\.vscode-test\//, why: 'the test VS Code and its sample workspace' },
  { pattern: /^(bench|docs|scripts|\.ci)\//, why: 'tooling and documentation sources' },
  { pattern: /(^|\/)\.git\//, why: 'git metadata' },
  { pattern: /\.vsix$/, why: 'an older package' },
];

/** The size a user downloads, with room to grow; a jump past it means something unintended shipped. */
export const MAX_VSIX_BYTES = 8 * 1024 * 1024;

const LINK = /(!?)\[([^\]]*)\]\(([^)\s]+)\)/g;

/**
 * The README as the extension's details page shows it. A link into the repository (`docs/cli.md`)
 * cannot resolve inside an installed extension and vsce refuses it without a repository URL: it
 * becomes the path in code font, so the reader still knows where to look in the source.
 */
export function vsixReadme(markdown) {
  return markdown.replace(LINK, (whole, bang, text, target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return whole;
    if (bang) throw new Error(`README.md: the image ${target} is relative; the extension's details page cannot show it`);
    const file = target.replace(/#.*$/, '');
    return text === target || text === file || text === `\`${file}\`` ? `\`${file}\`` : `${text} (\`${file}\`)`;
  });
}

/** The file names in a zip archive, read from its central directory (no extraction, no dependency). */
export function zipEntries(file) {
  const zip = readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip archive (no end of central directory)`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: central directory entry ${i} is damaged`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { names, bytes: zip.length };
}

/** Every way the package breaks the rules above, as sentences (empty when it is sound). */
export function vsixProblems({ names, bytes }) {
  const files = names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
  const problems = [];
  for (const required of REQUIRED_FILES) if (!files.includes(required)) problems.push(`missing ${required}`);
  for (const folder of REQUIRED_FOLDERS) if (!files.some((f) => f.startsWith(folder))) problems.push(`missing the folder ${folder}`);
  for (const f of files) {
    const rule = FORBIDDEN.find((r) => r.pattern.test(f));
    if (rule) problems.push(`ships ${f} (${rule.why}; keep it out in .vscodeignore)`);
  }
  if (!names.includes('extension.vsixmanifest')) problems.push('missing extension.vsixmanifest');
  if (bytes > MAX_VSIX_BYTES) problems.push(`is ${(bytes / 1048576).toFixed(1)} MB, over the ${MAX_VSIX_BYTES / 1048576} MB limit`);
  return problems;
}
