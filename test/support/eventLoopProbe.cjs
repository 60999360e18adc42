// Loaded with `node --require` into a CLI under test (NODE_OPTIONS): measures how long the main thread
// was blocked (a timer-drift probe: a 10 ms interval that fires late by the time the thread was busy)
// while a run's steps run, from its first `step/started` event to `run/finished` (on stdout, --json),
// and writes the stalls over 100 ms, each with the last event before it, to $PP_PROBE_OUT at exit.
// Only the first process reads the variable: the children it spawns (git, commands) inherit none.
'use strict';
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const out = process.env.PP_PROBE_OUT;
delete process.env.PP_PROBE_OUT;
if (out) {
  const stalls = [];
  let measuring = false;
  let lastEvent = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    for (const m of String(chunk).matchAll(/^\{(?:"v":\d+,)?"type":"([^"]+)"/gm)) {
      lastEvent = m[1];
      if (lastEvent === 'step/started') measuring = true;
      if (lastEvent === 'run/finished') measuring = false;
    }
    return write(chunk, ...rest);
  };
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (measuring && now - last > 100) stalls.push({ ms: Math.round(now - last), after: lastEvent });
    last = now;
  }, 10);
  timer.unref();
  process.on('exit', () => writeFileSync(out, JSON.stringify({ max: Math.max(0, ...stalls.map((s) => s.ms)), stalls })));
}
