import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { levelOf, LEVELS } from "./level.ts";
import { sharedDir } from "../../tests/shared_dir.ts";

const enc = new TextEncoder();
function level(line: string): string {
  const b = enc.encode(line);
  return LEVELS[levelOf(b, 0, b.length)];
}

Deno.test("levelOf reads the common layouts", () => {
  const cases: [string, string][] = [
    ["2026-10-28 10:00:09 ERROR job=9 msg=task step 9", "ERROR"],
    ["2015-10-18 18:01:47,978 WARN [main] org.apache.hadoop.Foo: x", "WARN"],
    ["[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok", "NOTICE"],
    ["[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6", "ERROR"],
    ["WARNING:root:disk almost full", "WARN"],
    ["03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogsopening", "DEBUG"],
    ["03-17 16:13:38.811  1702  2395 E WindowManager: boom", "ERROR"],
    ["2015-07-29 19:04:29,071 - WARN  [SendWorker:188978561024:QuorumCnxManager$SendWorker@688] - x", "WARN"],
    ["081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1", "INFO"],
    ["17/06/09 20:10:40 INFO executor.CoarseGrainedExecutorBackend: Registered", "INFO"],
    ["2024-01-01 00:00:00 SEVERE broken", "ERROR"],
    ["2024-01-01 00:00:00 crit: disk", "FATAL"],
    ["2024-01-01 00:00:00 [CRITICAL] disk", "FATAL"],
    ["2024-01-01 00:00:00 EMERG x", "FATAL"],
    ["2024-01-01 00:00:00 alert x", "FATAL"],
    ["2024-01-01 00:00:00 VERBOSE x", "TRACE"],
    ["2024-01-01 00:00:00 trace x", "TRACE"],
    ["2024-01-01 00:00:00 Notice x", "NOTICE"],
    ["\x1b[31mERROR\x1b[0m something failed", "ERROR"],
    ["2024-01-01 00:00:00 \x1b[33mWARN\x1b[0m slow", "WARN"],
    ["<11>Oct 11 22:14:15 host app: failed", "ERROR"],
    ["<165>1 2003-10-11T22:14:15.003Z host app - - x", "NOTICE"],
    ['{"level":30,"msg":"pino info"}', "INFO"],
    ['{"level":50,"msg":"pino error"}', "ERROR"],
    ['{"log.level":"warn","message":"ecs"}', "WARN"],
    ['{"msg":"no level here","error":"boom"}', "UNKNOWN"],
    ["ts=1 lvl=INF msg=hi", "INFO"],
    ["    at org.foo.Bar.baz(Bar.java:10)", "UNKNOWN"],
    ["Caused by: java.lang.Error: boom", "UNKNOWN"],
    ["I0501 10:00:12.000000       1 trace.go:205] request trace finished in 12ms", "INFO"],
    ["F0501 10:00:12.000000       1 main.go:1] bye", "FATAL"],
    ["", "UNKNOWN"],
    ["plain words without a level", "UNKNOWN"],
    ["2024-01-01 00:00:00 on_error handler ran", "UNKNOWN"],
    ["2024-01-01 00:00:00 WARN\r", "WARN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, JSON.stringify(line));
});

/** Reads a loghub CSV's Level column, folded the way the corpus README says. */
function csvLevels(path: string): string[] {
  const rows = parse(Deno.readTextFileSync(path), { columns: true }) as Record<string, string>[];
  return rows.map((r) => r.Level.toUpperCase());
}

Deno.test("levelOf agrees with every line's true level in the Loghub corpus", () => {
  const shared = sharedDir("Loghub level agreement");
  if (!shared) return;
  for (const name of ["Apache", "HDFS", "Hadoop", "Spark", "Zookeeper"]) {
    const dir = join(shared, "corpus", "loghub");
    const want = csvLevels(join(dir, `${name}_2k.log_structured.csv`));
    const bytes = Deno.readFileSync(join(dir, `${name}_2k.log`));
    let start = 0;
    const got: string[] = [];
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end < 0) end = bytes.length;
      got.push(LEVELS[levelOf(bytes, start, end)]);
      start = end + 1;
    }
    assert.equal(got.length, want.length, `${name}: line count`);
    const wrong = got.map((g, i) => [i + 1, g, want[i]]).filter(([, g, w]) => g !== w);
    assert.deepEqual(wrong.slice(0, 5), [], `${name}: ${wrong.length} lines disagree (line, got, want)`);
  }
});

Deno.test("the SIMD hint never changes a level: random header-like lines, with and without it", async () => {
  const { simdScanner, POSITIONS } = await import("./simd.ts");
  let seed = 3;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const parts = [
    "2024-05-01 ",
    "10:00:00 ",
    "[",
    "]",
    "INFO",
    "warn",
    "Error",
    "err",
    "trace.go",
    "java.lang.Error",
    " ",
    "-",
    ":",
    "=",
    "level=",
    "{",
    "<11>",
    "\x1b[31m",
    "03-17 16:13:38.811  1702  2395 D ",
    "I0501 10:00:12.000000 ",
    "x",
    "WARNING:",
    "\t",
  ];
  const lines: string[] = [];
  for (let i = 0; i < 5000; i++) {
    let l = "";
    const n = 1 + Math.floor(rnd() * 8);
    for (let k = 0; k < n; k++) l += parts[Math.floor(rnd() * parts.length)];
    lines.push(l);
  }
  const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
  const s = simdScanner(bytes.length);
  s.buf.set(bytes);
  let start = 0;
  let checked = 0;
  while (start < bytes.length) {
    const n = s.lines(start, bytes.length);
    for (let k = 0; k < n; k++) {
      const nl = s.positions[k] & 0xffffff;
      const hint = s.positions[k] >>> 24;
      const line = new TextDecoder().decode(bytes.subarray(start, nl));
      assert.equal(
        LEVELS[levelOf(s.buf, start, nl, hint)],
        LEVELS[levelOf(s.buf, start, nl)],
        JSON.stringify(line),
      );
      start = nl + 1;
      checked++;
    }
    if (n < POSITIONS) break;
  }
  assert.equal(checked, 5000);
});
