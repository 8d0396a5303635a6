// A preload (`NODE_OPTIONS=--require …/loop-probe.cjs`) that lets a benchmark watch a server it
// does not own: every few seconds it writes this process's resident memory and event-loop
// delay as JSON to `$BENCH_LOOP_PROBE_DIR/<pid>.json` (one file per process, as one command may
// start several). Writing `<n>` to `$BENCH_LOOP_PROBE_DIR/epoch` starts a new window: the delay
// histogram is reset and the readings carry `epoch: n`. Without the variable it does nothing.
"use strict";

const { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { monitorEventLoopDelay } = require("node:perf_hooks");
const { isMainThread } = require("node:worker_threads");

const dir = process.env.BENCH_LOOP_PROBE_DIR;
const RESOLUTION_MS = 10;
const EVERY_MS = 2000;

function readEpoch() {
  try {
    return Number(readFileSync(path.join(dir, "epoch"), "utf8").trim()) || 0;
  } catch {
    return 0;
  }
}

if (dir && isMainThread) {
  mkdirSync(dir, { recursive: true });
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let epoch = readEpoch();
  let since = Date.now();
  const file = path.join(dir, `${process.pid}.json`);
  // The histogram holds each interval between the timer's runs, the resolution included.
  const lag = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  // The heap's share of the resident memory tells a leak (heapUsed climbs) from an allocator or
  // heap that grew to a new high-water mark and kept it.
  const memory = () => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    return { rss, heapTotal, heapUsed, external, arrayBuffers };
  };
  const history = path.join(dir, `${process.pid}.history.jsonl`);
  const write = () => {
    const reading = {
      pid: process.pid,
      title: process.title,
      argv: process.argv.slice(1).join(" "),
      ...memory(),
      lag: {
        p50: lag(histogram.percentile(50)),
        p99: lag(histogram.percentile(99)),
        max: lag(histogram.max),
        samples: histogram.count,
      },
      epoch,
      since,
      at: Date.now(),
    };
    // Written aside and renamed, so a reader never sees half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(reading));
    renameSync(`${file}.tmp`, file);
    appendFileSync(history, `${JSON.stringify({ at: reading.at, epoch, ...memory() })}\n`);
    const next = readEpoch();
    if (next !== epoch) {
      epoch = next;
      since = Date.now();
      histogram.reset();
    }
  };
  const timer = setInterval(() => {
    try {
      write();
    } catch {
      // The directory went away with the benchmark: nothing left to report to.
    }
  }, EVERY_MS);
  timer.unref();
}
