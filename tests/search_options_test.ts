/**
 * Issue #5: ignore_case and regex searches, a regex that cannot hang, structured levels — end to end.
 */
import assert from "node:assert/strict";
import { type CallResult, connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const dir = tempDir("logpeek-options-");
Deno.writeTextFileSync(
  `${dir}/mixed.log`,
  [
    "2024-05-01 10:00:00 INFO Connection Timeout after 5s",
    "2024-05-01 10:00:01 WARN connection timeout after 9s",
    "2024-05-01 10:00:02 ERROR CONNECTION TIMEOUT, giving up",
    "2024-05-01 10:00:03 INFO Ärger mit dem Netz",
    "2024-05-01 10:00:04 INFO ärger again",
    "2024-05-01 10:00:05 INFO user id=42 took 120ms",
    "2024-05-01 10:00:06 INFO user id=7 took 80ms",
    "2024-05-01 10:00:07 INFO login password=hunter2 ok",
  ].join("\n") + "\n",
);
Deno.writeTextFileSync(`${dir}/evil.log`, "a".repeat(100_000) + "!\n2024-05-01 10:00:00 INFO after\n");
Deno.writeTextFileSync(
  `${dir}/structured.log`,
  [
    '{"time":1,"level":30,"msg":"pino info"}',
    '{"time":2,"level":50,"msg":"pino error"}',
    '{"name":"svc","hostname":"h","pid":1,"level":40,"msg":"bunyan warn","v":0}',
    '{"ts":"x","lvl":"dbug","msg":"unknown spelling"}',
    '{"ts":"x","lvl":"debug","msg":"lvl field"}',
    '{"@timestamp":"x","log.level":"warn","message":"ecs"}',
    '{"ts":"x","severity":"CRITICAL","message":"gcp style"}',
    'ts=2024-05-01T10:00:00Z level=error msg="logfmt error" error=nil',
    'time="2024" lvl=info msg="logfmt lvl"',
    "<11>Oct 11 22:14:15 host app: syslog err",
    "<14>1 2003-10-11T22:14:15.003Z host app - - syslog info",
    "<0>Oct 11 22:14:15 host kernel: emerg",
  ].join("\n") + "\n",
);

const texts = (r: CallResult) => r.structuredContent.matches.map((m: { text: string }) => m.text.slice(20));

Deno.test({
  name: "e2e: ignore_case matches ASCII letters in either case, and other scripts on the decoded line",
  ...opts,
  async fn() {
    await using s = await connect([dir]);
    const plain = await s.call("log_search", { file: "mixed.log", text: "connection timeout" });
    assert.deepEqual(texts(plain), ["WARN connection timeout after 9s"]);
    const ci = await s.call("log_search", {
      file: "mixed.log",
      text: "connection timeout",
      ignore_case: true,
    });
    assert.deepEqual(texts(ci), [
      "INFO Connection Timeout after 5s",
      "WARN connection timeout after 9s",
      "ERROR CONNECTION TIMEOUT, giving up",
    ]);
    assert.equal(ci.structuredContent.complete, true);
    const umlaut = await s.call("log_search", { file: "mixed.log", text: "ÄRGER", ignore_case: true });
    assert.deepEqual(texts(umlaut), ["INFO Ärger mit dem Netz", "INFO ärger again"]);
  },
});

Deno.test({
  name: "e2e: regex finds by pattern, on masked text; an invalid pattern gives the engine's reason",
  ...opts,
  async fn() {
    await using s = await connect([dir]);
    const r = await s.call("log_search", { file: "mixed.log", text: "id=\\d+ took \\d{3}ms", regex: true });
    assert.deepEqual(texts(r), ["INFO user id=42 took 120ms"]);
    assert.equal(r.structuredContent.complete, true);
    const ci = await s.call("log_search", {
      file: "mixed.log",
      text: "^.{20}error",
      regex: true,
      ignore_case: true,
    });
    assert.deepEqual(texts(ci), ["ERROR CONNECTION TIMEOUT, giving up"]);
    // The pattern sees the line as returned, secrets masked: it cannot probe a password.
    const probe = await s.call("log_search", { file: "mixed.log", text: "password=h", regex: true });
    assert.deepEqual(probe.structuredContent.matches, []);
    const bad = await s.call("log_search", { file: "mixed.log", text: "(unclosed", regex: true });
    assert.equal(bad.isError, true);
    assert.match(
      bad.content[0].text,
      /^invalid_pattern: invalid regular expression: missing closing \): `\(unclosed`/,
    );
    const look = await s.call("log_search", { file: "mixed.log", text: "(?<=id=)\\d+", regex: true });
    assert.match(
      look.content[0].text,
      /^invalid_pattern: .*cannot run in linear time.*backreferences, lookahead and lookbehind/,
    );
  },
});

Deno.test({
  name:
    "e2e: (a+)+$ against 100,000 a's then ! runs in linear time: an honest answer at once (the line's first 64 KiB tested, so not complete)",
  ...opts,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "2000", LOGPEEK_MAX_LINE: "200000" });
    const t = performance.now();
    const r = await s.call("log_search", { file: "evil.log", text: "(a+)+$", regex: true });
    const ms = performance.now() - t;
    assert.deepEqual([
      r.structuredContent.complete,
      r.structuredContent.stop_reason,
      r.structuredContent.matches,
      r.structuredContent.partially_tested,
    ], [
      false,
      null,
      [],
      1,
    ]);
    assert.ok(ms < 2000, `answered in ${ms.toFixed(0)} ms`);
    const after = await s.call("log_tail", { file: "evil.log", lines: 1 });
    assert.equal(after.isError, undefined, "the server still answers");
  },
});

Deno.test({
  name:
    "e2e: structured levels — JSON level/lvl/severity/log.level, pino and bunyan numbers, logfmt, syslog <PRI>",
  ...opts,
  async fn() {
    await using s = await connect([dir]);
    const t = await s.call("log_tail", { file: "structured.log", lines: 20 });
    assert.deepEqual(t.structuredContent.lines.map((l: { level: string }) => l.level), [
      "INFO",
      "ERROR",
      "WARN",
      "UNKNOWN",
      "DEBUG",
      "WARN",
      "FATAL",
      "ERROR",
      "INFO",
      "ERROR",
      "INFO",
      "FATAL",
    ]);
    const lv = await s.call("log_levels", { file: "structured.log" });
    assert.deepEqual(lv.structuredContent.counts, {
      TRACE: 0,
      DEBUG: 1,
      INFO: 3,
      NOTICE: 0,
      WARN: 2,
      ERROR: 3,
      FATAL: 2,
      UNKNOWN: 1,
    });
  },
});

Deno.test({
  name: "e2e (worker): regex searches run in the narrowed tool worker too",
  ...opts,
  async fn() {
    await using s = await connect([dir], { LOGPEEK_SEARCH_MS: "1000", LOGPEEK_MAX_LINE: "200000" }, [], {
      broadRead: true,
    });
    assert.match(s.stderr(), /tools run in a worker/);
    const r = await s.call("log_search", { file: "mixed.log", text: "id=\\d+ took \\d{3}ms", regex: true });
    assert.deepEqual(texts(r), ["INFO user id=42 took 120ms"]);
    const evil = await s.call("log_search", { file: "evil.log", text: "(a+)+$", regex: true });
    assert.deepEqual(
      [
        evil.structuredContent.complete,
        evil.structuredContent.stop_reason,
        evil.structuredContent.partially_tested,
      ],
      [false, null, 1],
    );
    const again = await s.call("log_tail", { file: "mixed.log", lines: 1 });
    assert.equal(again.isError, undefined);
  },
});

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat, read with cat. */
function cpuSeconds(pid: number): number {
  const out = new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stdout: "piped" }).outputSync();
  const fields = new TextDecoder().decode(out.stdout).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

Deno.test({
  name: "e2e: a search with a pattern that backtracks without end elsewhere leaves no core spinning here",
  ...opts,
  async fn() {
    Deno.writeTextFileSync(`${dir}/evil40.log`, ("a".repeat(40) + "!\n").repeat(1000));
    await using s = await connect([dir]);
    const r = await s.call("log_search", { file: "evil40.log", text: "(a+)+$", regex: true });
    assert.equal(r.structuredContent.complete, true);
    const before = cpuSeconds(s.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    const used = cpuSeconds(s.pid!) - before;
    assert.ok(used < 0.3, `the server used ${used.toFixed(2)} s of CPU in the second after the search`);
  },
});
