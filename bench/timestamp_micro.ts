/**
 * In-process timings of `read/timestamp.ts` `lineClock().timeOf` (no server, no protocol): ns per line on
 * each of the seven Loghub samples (`../shared/corpus/loghub`), on all seven interleaved line by line (the
 * layout changes every line), and on synthetic stack-trace (no time), JSON and access-log lines; in UTC and
 * in named zones; then a first pass with cold caches over three years of lines 10 minutes apart. Each figure
 * is the fastest of 9 rounds (the machine is shared: the minimum is the least disturbed).
 *
 * ```sh
 * deno run --allow-read --allow-env bench/timestamp_micro.ts [zone …]   # default: UTC Europe/Berlin
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { lineClock } from "../src/read/timestamp.ts";
import { sharedDir } from "../tests/shared_dir.ts";

const enc = new TextEncoder();

/** Start offsets of the lines of `buf`, then one past the last line's end of line. */
function lineStarts(buf: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) starts.push(i + 1);
  if (buf.length > 0 && buf[buf.length - 1] !== 10) starts.push(buf.length + 1); // a last line without LF
  return starts;
}

/** Prints the fastest of 9 rounds' ns per line of `timeOf` over every line of `buf`. */
function run(label: string, buf: Uint8Array, zone: string): void {
  const ls = lineStarts(buf), n = ls.length - 1;
  const clock = lineClock({ zone, modifiedMs: Date.UTC(2006, 0, 15) });
  for (let w = 0; w < 50; w++) {
    for (let i = 0; i < n; i++) sink += clock.timeOf(buf, ls[i], ls[i + 1] - 1) || 0;
  }
  const reps = 60;
  let best = Infinity;
  for (let round = 0; round < 9; round++) {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) {
      for (let i = 0; i < n; i++) sink += clock.timeOf(buf, ls[i], ls[i + 1] - 1) || 0;
    }
    best = Math.min(best, (performance.now() - t0) * 1e6 / (reps * n));
  }
  let seen = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(clock.timeOf(buf, ls[i], ls[i + 1] - 1))) seen++;
  console.log(
    `${label.padEnd(20)} ${zone.padEnd(18)} ${best.toFixed(1).padStart(7)} ns/line  ${seen}/${n} timed`,
  );
}

/** The sum of every time read (so the timed loops' results are used). */
let sink = 0;

const zones = Deno.args.length > 0 ? Deno.args : ["UTC", "Europe/Berlin"];
const shared = sharedDir("timestamp timings on the Loghub samples");
for (const zone of zones) {
  if (shared !== null) {
    const per: string[][] = [];
    for (const name of ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"]) {
      const buf = Deno.readFileSync(join(shared, "corpus", "loghub", `${name}_2k.log`));
      run(name, buf, zone);
      per.push(new TextDecoder().decode(buf).split("\n").filter((l) => l !== ""));
    }
    const mixed: string[] = [];
    for (let i = 0; i < 2000; i++) for (const p of per) mixed.push(p[i]);
    run("mixed (7 layouts)", enc.encode(mixed.join("\n") + "\n"), zone);
  }
  const lines = (f: (i: number) => string) =>
    enc.encode(Array.from({ length: 2000 }, (_, i) => f(i)).join("\n") + "\n");
  run("stack trace (none)", lines((i) => `\tat org.apache.Foo${i}.bar(Foo.java:${i})`), zone);
  run(
    "json",
    lines((i) => `{"level":"info","ts":${1700000000 + i}.123,"msg":"request served","status":200}`),
    zone,
  );
  run(
    "access log",
    lines((i) =>
      `10.0.0.${i % 255} - - [10/Oct/2000:13:${String(i % 60).padStart(2, "0")}:36 -0700] "GET /a" 200 2326`
    ),
    zone,
  );
}

// Cold caches: each local hour is new (a named zone asks Intl about once a UTC day, then per hour).
const cold: string[] = [];
for (let t = Date.UTC(2021, 0, 1); t < Date.UTC(2024, 0, 1); t += 600_000) {
  cold.push(new Date(t).toISOString().slice(0, 19).replace("T", " ") + " INFO x");
}
const coldBuf = enc.encode(cold.join("\n") + "\n"), cs = lineStarts(coldBuf);
for (const zone of zones) {
  const clock = lineClock({ zone, modifiedMs: null });
  const t0 = performance.now();
  for (let i = 0; i < cs.length - 1; i++) clock.timeOf(coldBuf, cs[i], cs[i + 1] - 1);
  const ms = performance.now() - t0;
  console.log(
    `first pass, 3 years  ${zone.padEnd(18)} ${(ms * 1e6 / (cs.length - 1)).toFixed(1).padStart(7)} ns/line`,
  );
}
if (sink < 0) console.log(sink);
