// Every way a Node or Python process loads code from the workspace (static and dynamic import, a
// computed path, require, createRequire with a built string, a plugin folder read at run time, a
// package by name from node_modules, a .pth file, NODE_OPTIONS), and every way the agent (or a
// command it ran) changes what it loads. The generator of invariant 1's shapes (docs/security.md):
// every program PatchPilot starts on the user's behalf (MCP servers and hooks through policy/launch,
// the model program) is tested against all of them.
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Launch } from '../../src/core/policy/launch';

export interface Shape {
  files: Record<string, string>;
  launch: Launch;
  /** The file the program loads that the attacker changes. */
  loaded: string;
  python?: boolean;
}

export const HELPER = "console.log('helper loaded');\n";
export const node = (args: string[], env: Record<string, string> = {}): Launch => ({ command: 'node', args, env });

export const SHAPES: Record<string, Shape> = {
  'static import': { files: { 'srv.mjs': "import './lib/helper.mjs';\n", 'lib/helper.mjs': HELPER }, launch: node(['srv.mjs']), loaded: 'lib/helper.mjs' },
  'dynamic import': {
    files: { 'srv.mjs': "await import('./lib/helper.mjs');\n", 'lib/helper.mjs': HELPER },
    launch: node(['srv.mjs']),
    loaded: 'lib/helper.mjs',
  },
  'computed import() path': {
    files: { 'srv.mjs': "const name = ['hel', 'per'].join('');\nawait import(`./lib/${name}.mjs`);\n", 'lib/helper.mjs': HELPER },
    launch: node(['srv.mjs']),
    loaded: 'lib/helper.mjs',
  },
  require: { files: { 'srv.cjs': "require('./lib/helper.cjs');\n", 'lib/helper.cjs': HELPER }, launch: node(['srv.cjs']), loaded: 'lib/helper.cjs' },
  'createRequire with a built string': {
    files: {
      'srv.mjs': "import { createRequire } from 'node:module';\nconst req = createRequire(import.meta.url);\nreq('./lib/' + 'hel' + 'per.cjs');\n",
      'lib/helper.cjs': HELPER,
    },
    launch: node(['srv.mjs']),
    loaded: 'lib/helper.cjs',
  },
  'plugin folder read at run time': {
    files: {
      'srv.mjs': "import fs from 'node:fs';\nfor (const f of fs.readdirSync('plugins')) await import(`./plugins/${f}`);\n",
      'plugins/a.mjs': HELPER,
    },
    launch: node(['srv.mjs']),
    loaded: 'plugins/a.mjs',
  },
  'package by name from node_modules': {
    files: {
      'srv.mjs': "import 'helper-pkg';\n",
      'node_modules/helper-pkg/package.json': '{"name":"helper-pkg","main":"index.js"}',
      'node_modules/helper-pkg/index.js': HELPER,
    },
    launch: node(['srv.mjs']),
    loaded: 'node_modules/helper-pkg/index.js',
  },
  'NODE_OPTIONS --require': {
    files: { 'srv.cjs': '', 'pre/load.cjs': HELPER },
    launch: node(['srv.cjs'], { NODE_OPTIONS: '--require ./pre/load.cjs' }),
    loaded: 'pre/load.cjs',
  },
  'python .pth file': {
    files: { 'srv.py': "import site\nsite.addsitedir('sitepkgs')\n", 'sitepkgs/x.pth': 'import helper\n', 'sitepkgs/helper.py': "print('helper loaded')\n" },
    launch: { command: 'python3', args: ['srv.py'], env: {} },
    loaded: 'sitepkgs/helper.py',
    python: true,
  },
};

/** Ways the agent (or a command it ran) changes what the program loads. */
export const WRITERS: Record<string, (abs: string) => void> = {
  rewrite: (abs) => writeFileSync(abs, "console.log('patched');\n"),
  'rewrite, same size': (abs) => writeFileSync(abs, HELPER.replace('helper', 'HELPER')),
  append: (abs) => appendFileSync(abs, "\nconsole.log('appended');\n"),
  'replace by rename': (abs) => {
    writeFileSync(`${abs}.tmp`, HELPER);
    renameSync(`${abs}.tmp`, abs);
  },
  'add a file beside it': (abs) => writeFileSync(path.join(path.dirname(abs), 'z-extra.mjs'), HELPER),
};

export function workspace(shape: Shape): { root: string; cleanup(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'pp-binding-'));
  for (const [rel, content] of Object.entries(shape.files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The shape's launch as one command line with absolute paths (the model program's setting): `env K=V node /ws/srv.mjs`. */
export function commandLineOf(shape: Shape, root: string): string {
  const env = Object.entries(shape.launch.env).map(([k, v]) => JSON.stringify(`${k}=${v}`));
  const args = shape.launch.args.map((a) => JSON.stringify(path.join(root, a)));
  return [...(env.length ? ['env', ...env] : []), shape.launch.command, ...args].join(' ');
}

export const tick = () => new Promise((r) => setTimeout(r, 15)); // past the kernel's timestamp tick (docs/security.md)
