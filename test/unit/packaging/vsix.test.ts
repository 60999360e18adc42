// The VSIX's rules (scripts/lib/vsix.mjs): the README links vsce would refuse, and the contents check
// that `npm test` runs on the real package. Here the rules meet generated README text and archive
// listings; the package itself is checked by scripts/package.mjs inside `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom } from '../../support/seededRandom';

const root = path.resolve(__dirname, '../../..');
type VsixModule = {
  vsixReadme(markdown: string): string;
  zipEntries(file: string): { names: string[]; bytes: number };
  vsixProblems(listing: { names: string[]; bytes: number }): string[];
  REQUIRED_FILES: string[];
  REQUIRED_FOLDERS: string[];
  MAX_VSIX_BYTES: number;
};
const load = (): Promise<VsixModule> => import(pathToFileURL(path.join(root, 'scripts/lib/vsix.mjs')).href);

const RELATIVE = /\]\((?![a-z][a-z0-9+.-]*:|#)/i;

test('the shipped README keeps no link that needs a repository to resolve, and loses no words', async () => {
  const { vsixReadme } = await load();
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const shipped = vsixReadme(readme);
  assert.ok(!RELATIVE.test(shipped), 'a relative link is left');
  assert.match(shipped, /CLI \(`docs\/cli\.md`\)/);
  assert.match(shipped, /`docs\/security\.md`/);
  const words = (t: string) =>
    t
      .replace(/[^A-Za-z]+/g, ' ')
      .split(' ')
      .filter((w) => w.length > 3 && w !== 'https');
  for (const w of new Set(words(readme.replace(/\]\([^)]*\)/g, ']')))) assert.ok(shipped.includes(w), `lost the word ${w}`);
});

test('generated links: absolute and anchor links stay, every relative one becomes its path', async () => {
  const { vsixReadme } = await load();
  const random = seededRandom(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  for (let i = 0; i < 300; i++) {
    const target = pick([
      'docs/a.md',
      'docs/cli.md#patchpilot-serve',
      './x/y.md',
      '../z.md',
      'https://a.invalid/p',
      'mailto:a@b.invalid',
      '#quick-start',
      'media/README.md',
    ]);
    const text = pick(['CLI', target, 'the docs', `\`${target}\``]);
    const out = vsixReadme(`before [${text}](${target}) after`);
    if (/^[a-z]+:|^#/.test(target)) assert.equal(out, `before [${text}](${target}) after`);
    else {
      assert.ok(!RELATIVE.test(out), out);
      assert.ok(out.includes(`\`${target.replace(/#.*/, '')}\``), out);
    }
  }
  assert.throws(() => vsixReadme('![shot](media/shot.png)'), /image media\/shot\.png is relative/);
});

test('the contents rules name what is missing, what must not ship, and an oversized package', async () => {
  const { vsixProblems, REQUIRED_FILES, REQUIRED_FOLDERS, MAX_VSIX_BYTES } = await load();
  const sound = [
    'extension.vsixmanifest',
    '[Content_Types].xml',
    ...REQUIRED_FILES.map((f) => `extension/${f}`),
    ...REQUIRED_FOLDERS.map((f) => `extension/${f}x`),
  ];
  assert.deepEqual(vsixProblems({ names: sound, bytes: 1000 }), []);
  for (const required of REQUIRED_FILES)
    assert.deepEqual(vsixProblems({ names: sound.filter((n) => n !== `extension/${required}`), bytes: 1000 }), [`missing ${required}`]);
  for (const bad of [
    'src/core/x.ts',
    'test/a.test.ts',
    'dist/extension.js.map',
    'dist/cli.js',
    'node_modules/a/index.js',
    'webview-ui/chat/main.ts',
    'docs/cli.md',
  ])
    assert.match(vsixProblems({ names: [...sound, `extension/${bad}`], bytes: 1000 }).join('\n'), new RegExp(`ships ${bad.replace(/\./g, '\\.')}`));
  assert.match(vsixProblems({ names: sound, bytes: MAX_VSIX_BYTES + 1 }).join(), /over the/);
});

test('the package npm test built is sound (when it exists)', async (t) => {
  const vsix = path.join(root, 'patchpilot.vsix');
  if (!existsSync(vsix)) return t.skip('no patchpilot.vsix: npm test packages it before the suite');
  const { vsixProblems, zipEntries } = await load();
  assert.deepEqual(vsixProblems(zipEntries(vsix)), []);
});
