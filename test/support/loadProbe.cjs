// Loaded with `node --require` (NODE_OPTIONS or -r): records what a process loaded. At exit it writes
// $PP_LOAD_PROBE_OUT: the files in require.cache, the process's CPU time (start-up included) and, when
// $PP_LOAD_PROBE_BUNDLE names a bundle, the CPU it took to require it (node's own start-up not in it).
// The bundle is the VS Code extension: `vscode` resolves to an inert stand-in so its top level can run
// (nothing is called: activate() is not, which is the point: what loading costs before it).
// Only the first process reads the variables: the children it spawns inherit none.
'use strict';
const { writeFileSync } = require('node:fs');
const Module = require('node:module');
const out = process.env.PP_LOAD_PROBE_OUT;
const bundle = process.env.PP_LOAD_PROBE_BUNDLE;
delete process.env.PP_LOAD_PROBE_OUT;
delete process.env.PP_LOAD_PROBE_BUNDLE;

/** Any property is a constructible, callable function whose properties are the same again. */
function inert() {
  const target = function () {};
  return new Proxy(target, {
    get: (t, key) => (key === 'prototype' ? t.prototype : key === Symbol.toPrimitive ? () => '' : inert()),
    apply: () => inert(),
    construct: () => inert(),
  });
}

if (out) {
  let bundleCpuMs;
  process.on('exit', () => {
    const total = process.cpuUsage();
    const processCpuMs = (total.user + total.system) / 1000;
    writeFileSync(out, JSON.stringify({ processCpuMs, bundleCpuMs, loaded: Object.keys(require.cache) }));
  });
  if (bundle) {
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
    };
    require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: inert() };
    const start = process.cpuUsage();
    require(bundle);
    const used = process.cpuUsage(start);
    bundleCpuMs = (used.user + used.system) / 1000;
  }
}
