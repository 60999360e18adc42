// Loaded with `node --require` into a process under test (NODE_OPTIONS): measures how long the main
// thread was blocked at most (a timer-drift probe: a 10 ms interval that fires late by the time the
// thread was busy) and writes the longest stall, in ms, to $PP_PROBE_OUT when the process exits.
// Only the first process reads the variable: the children it spawns (git, commands) inherit none.
'use strict';
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const out = process.env.PP_PROBE_OUT;
delete process.env.PP_PROBE_OUT;
if (out) {
  const stalls = [];
  // Starts once the main module has run: loading the bundle is not a stall of the run.
  setTimeout(() => {
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      if (now - last > 100) stalls.push(Math.round(now - last));
      last = now;
    }, 10);
    timer.unref();
  }, 0);
  process.on('exit', () => writeFileSync(out, JSON.stringify({ max: Math.max(0, ...stalls), stalls })));
}
