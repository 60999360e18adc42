// Loaded with `node --require` into a CLI under test (NODE_OPTIONS): measures how long the main thread
// was blocked (a timer-drift probe: a 10 ms interval that fires late by the time the thread was busy)
// while a run's steps run, from its first `step/started` event to `run/finished` (on stdout, --json),
// and writes the stalls over 100 ms, each with the CPU used in it and the last event before it, to
// $PP_PROBE_OUT at exit (`max`: the longest stall, `maxCpu`: the most CPU in one).
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
  // Each stall also carries the CPU this process used during it (all its threads: an over-estimate of the
  // main thread's): on a loaded machine a stall with little CPU is the scheduler, not a block of work.
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(lastCpu);
    const cpuMs = Math.round((used.user + used.system) / 1000);
    if (measuring && now - last > 100) stalls.push({ ms: Math.round(now - last), cpuMs, after: lastEvent });
    last = now;
    lastCpu = process.cpuUsage();
  }, 10);
  timer.unref();
  process.on('exit', () =>
    writeFileSync(out, JSON.stringify({ max: Math.max(0, ...stalls.map((s) => s.ms)), maxCpu: Math.max(0, ...stalls.map((s) => s.cpuMs)), stalls })),
  );
}
