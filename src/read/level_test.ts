import assert from "node:assert/strict";
import { join } from "node:path";
import { CONTINUED, levelOf, LEVELS, LevelTally, lineLevel, UNSCALED } from "./level.ts";
import { sharedDir } from "../../tests/shared_dir.ts";
import { LOGHUB, trueLevels } from "../../tests/loghub_truth.ts";

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

Deno.test("levelOf: a bracket, parenthesis, colon or pipe beside a level word is a delimiter (case 18)", () => {
  const cases: [string, string][] = [
    ['ERROR[05-01|10:00:02.000] Failed to dial peer                      reason="i/o timeout"', "ERROR"],
    ["DEBUG[05-01|10:00:03.000] Ping sent                                id=7", "DEBUG"],
    ["TRACE[05-01|10:00:04.000] Frame read                               size=64", "TRACE"],
    ["2024-05-01T10:00:06.000 [4242]INFO:worker:queue drained", "INFO"],
    ["2024-05-01T10:00:07.000 [4242]ERROR:worker:task 9 crashed", "ERROR"],
    ["error[E0308]: mismatched types in build step 3", "ERROR"],
    ["2024-05-01 10:00:00 (WARN) disk", "WARN"],
    ["2024-05-01 10:00:00 |FATAL| gone", "FATAL"],
    ["2024-05-01 10:00:00 worker(3)ERROR(7) x", "ERROR"],
    // still inside a name, not a level:
    ["Caused by: java.lang.Error: boom", "UNKNOWN"],
    ["2024-05-01 10:00:00 on_error(3) ran", "UNKNOWN"],
    ["2024-05-01 10:00:00 trace.go[12] x", "UNKNOWN"],
    ["2024-05-01 10:00:00 new Errors(3) x", "UNKNOWN"],
    ["2024-05-01 10:00:00 ERRORS[3] x", "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, JSON.stringify(line));
});

/**
 * Lines with long headers, each with its true level: Blue Gene/L RAS (Loghub BGL's layout: alert tag,
 * epoch seconds, date, node, time, node, `RAS`, component, level; levels INFO, WARNING, SEVERE, ERROR,
 * FATAL, FAILURE), Thunderbird, HPC, Windows CBS, Android, Mac, HealthApp, Proxifier and OpenStack
 * shapes. Their messages hold level words that are not the line's level.
 */
const LONG: [string, string][] = [
  [
    "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected",
    "INFO",
  ],
  [
    "- 1118300000 2005.06.08 R12-M1-N4-I:J18-U01 2005-06-08-02.00.00.000000 R12-M1-N4-I:J18-U01 RAS KERNEL INFO 1 ddr error(s) detected, FATAL not",
    "INFO",
  ],
  [
    "KERNDTLB 1118536327 2005.06.11 R30-M0-N9-C:J16-U01 2005-06-11-17.32.07.581048 R30-M0-N9-C:J16-U01 RAS KERNEL FATAL data TLB error interrupt",
    "FATAL",
  ],
  [
    "APPREAD 1117869872 2005.06.04 R33-M0-ND 2005-06-04-00.24.32.398284 R33-M0-ND RAS APP FATAL ciod: failed to read message prefix, info lost",
    "FATAL",
  ],
  [
    "- 1118009553 2005.06.05 bglmaster 2005-06-05-15.12.33.345620 bglmaster RAS BGLMASTER FAILURE ciodb exited abnormally due to signal: Aborted",
    "FATAL",
  ],
  [
    "- 1118100000 2005.06.06 R72-M1-N9 2005-06-06-12.10.11.172219 R72-M1-N9 RAS HARDWARE WARNING PrepareForService: error on Node card",
    "WARN",
  ],
  [
    "- 1118200000 2005.06.07 R23-M0-NE-C:J05-U01 2005-06-07-01.00.00.000000 R23-M0-NE-C:J05-U01 RAS DISCOVERY SEVERE Can not get assembly information",
    "ERROR",
  ],
  [
    "- 1118400000 2005.06.09 R12-M1-N4-I:J18-U01 2005-06-09-02.00.00.000000 R12-M1-N4-I:J18-U01 RAS DISCOVERY ERROR Found invalid node, warning: x",
    "ERROR",
  ],
  [
    "- 1117955341 2005.06.05 NULL 2005-06-05-00.09.01.903643 NULL RAS MMCS ERROR idoproxydb hit ASSERT condition: ASSERT expression=0",
    "ERROR",
  ],
  [
    "- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond(pam_unix)[2915]: session closed: error for user root",
    "UNKNOWN",
  ],
  [
    "- 1131566461 2005.11.09 tbird-admin1 Nov 10 12:01:01 local@tbird-admin1 postfix/postdrop[10896]: warning: unable to look up public/pickup",
    "WARN",
  ],
  [
    "ECC 1131566461 2005.11.09 dn261 Nov 9 12:01:01 dn261/dn261 kernel: EDAC k8 MC0: general bus error: participating processor",
    "UNKNOWN",
  ],
  [
    "134681 node-246 unix.hw state_change.unavailable 1077804742 1 Component State Change: error state",
    "UNKNOWN",
  ],
  ["460 node-246 action start 1077804742 1 clusterAddMember error (command 1902)", "UNKNOWN"],
  [
    "2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack v6.1.7601.23505 with Core",
    "INFO",
  ],
  ["2016-09-28 04:30:31, Error                 CSI    00000001@2016/9/27:20:30:31.455 (F) Failed", "ERROR"],
  ["03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogsopening app, error", "DEBUG"],
  [
    "Jul  1 09:00:55 calvisitor-10-105-160-95 kernel[0]: IOThunderboltSwitch<0>(0x0)::listenerCallback - error",
    "UNKNOWN",
  ],
  [
    "Jul  1 09:02:26 calvisitor-10-105-160-95 QQ[10018]: FA||Url||taskID[2019352994] dealloc error",
    "UNKNOWN",
  ],
  ["20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579", "UNKNOWN"],
  [
    "[10.30 16:49:07] chrome.exe - proxy.cse.cuhk.edu.hk:5070 error : Could not connect through proxy",
    "ERROR",
  ],
  [
    "nova-compute.log.1.2017-05-16_13:55:31 2017-05-16 00:00:04.500 2931 WARNING nova.compute.manager [req-1 - - - - -] error",
    "WARN",
  ],
  // syslog: after the program tag only the message's first word may be a level, never a sentence's
  ["Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure; logname= uid=0", "UNKNOWN"],
  ["Jul 27 14:41:58 combo kernel: Failure registering capabilities with the kernel", "UNKNOWN"],
  ["Dec 10 07:51:15 LabSZ sshd[24324]: error: Received disconnect from 195.154.37.122: 3", "ERROR"],
  ["Jul  7 08:06:12 combo gpm[2094]: *** info [mice.c(1766)]:", "INFO"],
  ["2024-05-01 10:00:00.000 UTC [1234] LOG:  statement: select error", "UNKNOWN"],
  ["Sun Dec 04 04:47:44 2005 host app WARN x", "WARN"],
  ["2024-05-01 10:00:00 Failure: disk", "FATAL"],
  ["2024-05-01 10:00:00 the job had an error", "UNKNOWN"],
  // an access log's quoted request and referrer are not header fields
  [
    '10.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /x HTTP/1.1" 200 5 "http://h/?q=error" "curl/8.0"',
    "UNKNOWN",
  ],
  ['2024-05-01 10:00:00 "ERROR" x', "ERROR"],
];

Deno.test("levelOf finds a level after a long header, not the level words of the message", () => {
  for (const [line, want] of LONG) assert.equal(level(line), want, JSON.stringify(line));
});

Deno.test("levelOf agrees with every line's true level in the seven Loghub samples", () => {
  const shared = sharedDir("Loghub level agreement");
  if (!shared) return;
  const dir = join(shared, "corpus", "loghub");
  for (const name of LOGHUB) {
    const want = trueLevels(dir, name);
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
    "ERROR[",
    "]INFO:",
    "(warn)",
    "|",
    "#0 ",
    "#12 {main}",
    "prod.ERROR:",
    "app.WARNING: ",
    "debug2 ",
    "DEBUG5",
    "FINE ",
    "finer",
    "Stack trace:",
    "Caused by: ",
    "  at ",
    "at x.Y(Y.java:1)",
    "ValueError: ",
    "... 3 more",
    "RAS KERNEL ",
    "R02-M1-N0-C:J12-U11 ",
    "FAILURE ",
    "sshd[1]: ",
    "logrotate: ",
    "Failure ",
    "Jun ",
    "host ",
    "*** ",
    '"GET ',
    '"',
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

Deno.test("levelOf: a level word in a sentence after a plain word is not the line's level; '/' in brackets delimits", () => {
  const cases: [string, string][] = [
    // Sentences of a message: a plain word, then a level word in lower case between blanks (a tester's lines).
    ["2024-05-01 10:00:00 authentication failure for root", "UNKNOWN"],
    ["2024-05-01 10:00:00 10.0.0.1 login failure user=bob", "UNKNOWN"],
    ["2024-05-01 10:00:00 predicted disk failure on sda", "UNKNOWN"],
    ["2024-05-01 10:00:00 worker Critical section entered", "UNKNOWN"],
    ["2024-05-01 10:00:00 checked: 0 errors, 1 warning", "UNKNOWN"],
    ["2024-05-01 10:00:00 User error occurred in foo", "UNKNOWN"],
    ["2024-05-01 10:00:00 Disk error detected", "UNKNOWN"],
    // (The first word after the time is still taken as a level: `… Warning light on` is WARN; README.),
    ["2024-05-01 10:00:00 dashboard Warning light on", "UNKNOWN"],
    // Still levels: capitals after a host or logger, punctuation beside the word, a label with ' :'.
    ["2024-05-01 10:00:00 host1 myapp ERROR disk full", "ERROR"],
    ["2024-05-01 10:00:00 myapp [error] disk full", "ERROR"],
    ["2024-05-01 10:00:00 myapp warning: disk full", "WARN"],
    ["[10.30 16:49:07] chrome.exe - proxy.example.org:5070 error : Could not connect", "ERROR"],
    ["2024-05-01 10:00:00 error disk full", "ERROR"],
    // '/' beside a level word inside square brackets (log4j thread/level, Celery level/process).
    ["[10:00:00] [Server thread/WARN]: Can't keep up!", "WARN"],
    ["[2024-05-01 10:00:00,000: ERROR/MainProcess] task failed", "ERROR"],
    ["2024-05-01 10:00:00 [ERROR/ForkPoolWorker-1] Task failed", "ERROR"],
    ["2024-05-01 10:00:00 [main/INFO]: started", "INFO"],
    // ... and not outside brackets.
    ["10.0.0.1 GET /debug 200", "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
});

Deno.test("levelOf: Android logcat's brief, time and tag formats; 'I/O error' is not one", () => {
  const cases: [string, string][] = [
    ["E/ActivityManager(  123): ANR in com.example", "ERROR"],
    ["W/Tag( 1): x", "WARN"],
    ["D/dalvikvm(  456): GC_CONCURRENT freed 2K", "DEBUG"],
    ["I/chromium: [INFO:CONSOLE(1)] hello", "INFO"],
    ["05-01 10:00:00.123 W/Tag( 1): x", "WARN"],
    ["05-01 10:00:00.123 F/libc    ( 4242): Fatal signal 11", "FATAL"],
    ["I/O completed on device sda", "UNKNOWN"],
    ["I/O: read failed", "UNKNOWN"],
    ["A/B testing started", "UNKNOWN"],
    // the threadtime format, as before
    ["03-17 16:13:38.811  1702  2395 E WindowManager: boom", "ERROR"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
});

Deno.test("levelOf: skipping a syslog or Apache timestamp gives the level the full walk gives (random headers)", () => {
  // The oracle: the same line with the timestamp's month and weekday names replaced by digits, which
  // no shortcut recognises, so rule 5 walks it from the line's start. Both kinds of field leave no
  // state behind (case 18: a month name is a header field, as digits are).
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const tails = [
    "LabSZ ",
    "sshd[24806]: ",
    "combo ",
    "su(pam_unix)[8565]: ",
    "kernel: ",
    "error ",
    "ERROR ",
    "[notice] ",
    "[error] ",
    "warning: ",
    "Failure ",
    "Failed ",
    "host ",
    "*** ",
    "INFO",
    "info",
    "x",
    "[",
    "]",
    ":",
    '"GET ',
    "\x1b[31m",
    "logrotate: ",
    "session opened ",
    "  ",
    "12 ",
  ];
  const stamps: [string, string][] = [
    ["Dec 10 09:48:23 ", "000 10 09:48:23 "],
    ["Jul  6 04:08:43 ", "000  6 04:08:43 "],
    ["Sun Jun 18 22:01:02 ", "000 000 18 22:01:02 "], // not a syslog stamp: both walk it all
    ["[Mon Dec 05 18:26:06 2005] ", "[000 000 05 18:26:06 2005] "],
    ["[Sun Dec  4 04:47:44 2005] ", "[000 000  4 04:47:44 2005] "],
    ["[Sun Dec 04 04:47:44 2005]x", "[000 000 04 04:47:44 2005]x"], // no blank after: no shortcut
  ];
  const enc = new TextEncoder();
  const seen = new Set<string>();
  for (let i = 0; i < 20000; i++) {
    const [stamp, digits] = pick(stamps);
    let tail = "";
    const n = Math.floor(rnd() * 7);
    for (let k = 0; k < n; k++) tail += pick(tails);
    const a = enc.encode(stamp + tail), b = enc.encode(digits + tail);
    const got = LEVELS[levelOf(a, 0, a.length)];
    assert.equal(got, LEVELS[levelOf(b, 0, b.length)], JSON.stringify(stamp + tail));
    seen.add(got);
  }
  // The lines cover levels found after the stamp and lines with none.
  for (const l of ["ERROR", "NOTICE", "WARN", "INFO", "FATAL", "UNKNOWN"]) assert.ok(seen.has(l), l);
});

// Issue #23: levels by rules that generalise. Every line below was written for these tests.

Deno.test("levelOf: a level in capitals glued to a channel by a dot before a colon (Monolog's channel.LEVEL:)", () => {
  const cases: [string, string][] = [
    ['[2024-03-02 11:22:33] production.ERROR: payment failed {"order":7} []', "ERROR"],
    ["[2024-03-02 11:22:34] app.WARNING: cache slow [] []", "WARN"],
    ["[2024-03-02 11:22:35] security.INFO: user 7 logged in [] []", "INFO"],
    ["[2024-03-02T11:22:36.123456+01:00] event-bus.DEBUG: dispatched [] []", "DEBUG"],
    ["[2024-03-02 11:22:37] my_app2.CRITICAL: disk gone [] []", "FATAL"],
    ["[2024-03-02 11:22:38] php.NOTICE: Undefined index: id [] []", "NOTICE"],
    // not a channel's level: not in capitals, no colon, or no name before the dot
    ["[2024-03-02 11:22:39] threw java.lang.Error: out of stack", "UNKNOWN"],
    ["[2024-03-02 11:22:40] app.Error: something", "UNKNOWN"],
    ["[2024-03-02 11:22:41] app.ERROR something", "UNKNOWN"],
    ["[2024-03-02 11:22:42] see .ERROR: here", "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
});

Deno.test("levelOf: numbered debug levels (debug2 … DEBUG5) are DEBUG, in a header, a JSON field and logfmt", () => {
  const cases: [string, string][] = [
    ["2024-03-02 11:22:33 debug2 polled queue", "DEBUG"],
    ["2024-03-02 11:22:33 DEBUG4 frame dump", "DEBUG"],
    ["2024-03-02 11:22:33 [debug3] tick", "DEBUG"],
    ['{"ts":"2024-03-02T11:22:33Z","lvl":"DEBUG5","msg":"x"}', "DEBUG"],
    ["ts=2024-03-02T11:22:33Z level=debug2 msg=x", "DEBUG"],
    // only debug is numbered; two digits are not a level
    ["2024-03-02 11:22:33 info2 x", "UNKNOWN"],
    ["2024-03-02 11:22:33 debug10 x", "UNKNOWN"],
    ['{"lvl":"ERROR2"}', "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
});

Deno.test("levelOf: java.util.logging's names fold (SEVERE ERROR, CONFIG/FINE DEBUG, FINER/FINEST TRACE), in capitals only", () => {
  const cases: [string, string][] = [
    ["2024-03-02 11:22:33 SEVERE checkout failed", "ERROR"],
    ["2024-03-02 11:22:33 WARNING pool low", "WARN"],
    ["2024-03-02 11:22:33 CONFIG pool size=8", "DEBUG"],
    ["2024-03-02 11:22:33 FINE resolved host", "DEBUG"],
    ["2024-03-02 11:22:33 FINER entering add", "TRACE"],
    ["2024-03-02 11:22:33 FINEST bytes=12", "TRACE"],
    ["FINE: resolved host", "DEBUG"],
    ["2024-03-02 11:22:33 [FINER] x", "TRACE"],
    // the same words in lower case are words, not levels
    ["2024-03-02 11:22:33 fine weather today", "UNKNOWN"],
    ["2024-03-02 11:22:33 config reloaded", "UNKNOWN"],
    ["2024-03-02 11:22:33 Finest hour", "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
});

Deno.test("levelOf: a numeric level is read on the scale its field names, else UNKNOWN", () => {
  const cases: [string, string][] = [
    // journald's PRIORITY and syslog.severity: syslog severities 0–7 (RFC 5424 §6.2.1), strings too
    ['{"__REALTIME_TIMESTAMP":"1709378553000000","PRIORITY":"3","MESSAGE":"unit failed"}', "ERROR"],
    ['{ "MESSAGE" : "started", "PRIORITY" : "6" }', "INFO"],
    ['{"PRIORITY":"0","MESSAGE":"x"}', "FATAL"],
    ['{"PRIORITY":"2","MESSAGE":"x"}', "FATAL"],
    ['{"PRIORITY":"4","MESSAGE":"x"}', "WARN"],
    ['{"PRIORITY":"5","MESSAGE":"x"}', "NOTICE"],
    ['{"PRIORITY":"7","MESSAGE":"x"}', "DEBUG"],
    ['{"syslog.severity":4,"msg":"x"}', "WARN"],
    ['{"PRIORITY":"9","MESSAGE":"x"}', "UNKNOWN"],
    ['{"priority":"3","task":"x"}', "UNKNOWN"], // a task's priority, not journald's field
    // OpenTelemetry's severityNumber: 1–4 TRACE … 21–24 FATAL
    ['{"timeUnixNano":"1","severityNumber":17,"body":"x"}', "ERROR"],
    ['{"severity_number":9,"body":"x"}', "INFO"],
    ['{"severityNumber":1}', "TRACE"],
    ['{"severityNumber":24}', "FATAL"],
    ['{"severityNumber":0}', "UNKNOWN"],
    // pino and bunyan: 10–60
    ['{"level":10,"msg":"x"}', "TRACE"],
    ['{"level":20,"msg":"x"}', "DEBUG"],
    ['{"level":40,"msg":"x"}', "WARN"],
    ['{"level":60,"msg":"x"}', "FATAL"],
    // a number on a scale the line does not name: Nextcloud's 0–4, Monolog's 100–600, a bare 0 or 1
    ['{"reqId":"a1","level":1,"message":"x"}', "UNKNOWN"],
    ['{"level":0,"message":"x"}', "UNKNOWN"],
    ['{"level":3,"message":"x"}', "UNKNOWN"],
    ['{"level":400,"message":"x"}', "UNKNOWN"],
    ['{"message":"x","level":400,"level_name":"ERROR"}', "ERROR"], // Monolog's JsonFormatter
    ['{"levelname":"WARNING","message":"x"}', "WARN"], // python-json-logger
    ["ts=1 level=2 msg=x", "UNKNOWN"],
    ["ts=1 level=50 msg=x", "ERROR"],
    ['{"level":30.5}', "UNKNOWN"],
  ];
  for (const [line, want] of cases) assert.equal(level(line), want, line);
  // Read in order, the lines whose only level is a number off its scale are UNKNOWN, and counted apart.
  const off = ['{"level":1,"message":"x"}', "ts=1 level=2 msg=x", '{"PRIORITY":"9"}', '{"severityNumber":0}'];
  for (const line of off) {
    const b = enc.encode(line);
    assert.equal(lineLevel(b, 0, b.length), UNSCALED, line);
  }
  for (const line of ['{"msg":"no level"}', '{"level":1,"level_name":"INFO"}', "ts=1 msg=x"]) {
    const b = enc.encode(line);
    assert.notEqual(lineLevel(b, 0, b.length), UNSCALED, line);
  }
  const t = new LevelTally();
  for (const line of [...off, '{"level":30}', '{"msg":"x"}']) {
    const b = enc.encode(line);
    t.add(b, 0, b.length);
  }
  assert.deepEqual([t.unscaled, t.counts[LEVELS.indexOf("UNKNOWN")], t.counts[LEVELS.indexOf("INFO")]], [
    4,
    5,
    1,
  ]);
});

Deno.test("lineLevel: continuation lines are CONTINUED, alone UNKNOWN (never TRACE from 'Stack trace:')", () => {
  const continued = [
    "    at com.shop.Cart.add(Cart.java:41)",
    "	at com.shop.Cart.add(Cart.java:41)",
    "at com.shop.Cart.add(Cart.java:41)",
    "    at Object.<anonymous> (/srv/app/index.js:12:5)",
    "at /srv/app/index.js:12:5",
    "	... 17 more",
    "... 17 more",
    "Caused by: java.io.IOException: connection reset",
    "Suppressed: java.lang.RuntimeException: close failed",
    "Stack trace:",
    "#0 /srv/app/src/Kernel.php(88): App\\Kernel->handle()",
    "#12 {main}",
    "Traceback (most recent call last):",
    '  File "/srv/job.py", line 9, in run',
    'File "/srv/job.py", line 9, in run',
    "    raise KeyError(name)",
    "java.lang.IllegalStateException: cart closed",
    "org.shop.CartException",
    "KeyError: 'user'",
    "libfooError: socket gone",
    "goroutine 7 [running]:",
    "  thrown at /srv/a.php:3)",
    "	",
  ].filter((l) => l.trim() !== "");
  for (const line of continued) {
    const b = enc.encode(line);
    assert.equal(lineLevel(b, 0, b.length), CONTINUED, JSON.stringify(line));
    assert.equal(levelOf(b, 0, b.length), LEVELS.indexOf("UNKNOWN"), JSON.stringify(line));
  }
  // Not continuations: a level in capitals after the indent (log4j %5p, Python %(levelname)8s), a
  // bare `Error:`, a sentence that starts with "at", an exception word alone.
  const entries: [string, string][] = [
    ["  INFO [main] started", "INFO"],
    [" WARN [main] pool low", "WARN"],
    ["   DEBUG x=1", "DEBUG"],
    ["Error: ENOENT: no such file", "ERROR"],
    ["ERROR: disk full", "ERROR"],
    ["at noon the job ran", "UNKNOWN"],
    ["Exception: x", "UNKNOWN"],
    ["Stack overflow handled", "UNKNOWN"],
  ];
  for (const [line, want] of entries) {
    const b = enc.encode(line);
    assert.equal(LEVELS[lineLevel(b, 0, b.length)], want, line);
  }
});

/** The counts of `lines` read in order by a LevelTally: entries as `L`, continuation lines as `+L`. */
function tallied(lines: string[]): Record<string, number> {
  const t = new LevelTally();
  for (const line of lines) {
    const b = enc.encode(line);
    t.add(b, 0, b.length);
  }
  const out: Record<string, number> = {};
  t.counts.forEach((n, code) => {
    if (n) out[(code >= CONTINUED ? "+" : "") + LEVELS[code % CONTINUED]] = n;
  });
  return out;
}

Deno.test("LevelTally: continuation lines take their entry's level and are counted apart", () => {
  // A Java error with its trace, then an INFO entry with an XML body (lines without its header's digits).
  assert.deepEqual(
    tallied([
      "2024-03-02 11:22:33,100 ERROR [http-1] c.s.Cart - checkout failed",
      "java.lang.IllegalStateException: cart closed",
      "\tat com.shop.Cart.add(Cart.java:41)",
      "Caused by: java.io.IOException: reset",
      "\t... 17 more",
      "2024-03-02 11:22:34,000 INFO [http-1] c.s.Cart - request body:",
      '<?xml version="1.0"?>',
      "<cart/>",
    ]),
    { ERROR: 1, "+ERROR": 4, INFO: 1, "+INFO": 2 },
  );
  // A Monolog/Laravel error: its `[stacktrace]`, frames and closing `"}` are the error's, none TRACE.
  assert.deepEqual(
    tallied([
      '[2024-03-02 11:22:33] production.ERROR: boom {"exception":"[object] (RuntimeException(code: 0): boom',
      "[stacktrace]",
      "#0 /srv/app/a.php(3): run()",
      "#1 {main}",
      '"} ',
      "[2024-03-02 11:22:34] production.ERROR: Uncaught RuntimeException: boom in /srv/app/a.php:3",
      "Stack trace:",
      "#0 {main}",
      "  thrown in /srv/app/a.php on line 3",
      "[2024-03-02 11:22:35] production.INFO: next [] []",
    ]),
    { ERROR: 2, "+ERROR": 7, INFO: 1 },
  );
  // java.util.logging's SimpleFormatter: the time and source, then `LEVEL: message` on the next line.
  assert.deepEqual(
    tallied([
      "Mar 02, 2024 11:22:33 AM com.shop.Cart add",
      "SEVERE: checkout failed",
      "Mar 02, 2024 11:22:34 AM com.shop.Cart add",
      "INFO: retry ok",
      "Mar 02, 2024 11:22:35 AM com.shop.Cart close",
      "FINE: closed",
    ]),
    { ERROR: 1, "+ERROR": 1, INFO: 1, "+INFO": 1, DEBUG: 1, "+DEBUG": 1 },
  );
});

Deno.test("LevelTally: without a header to lack, a line is an entry; a written level starts a new one", () => {
  // No line has a digit near its start: nothing continues anything (but rule 0's own shapes).
  assert.deepEqual(tallied(["starting", "ERROR: x", "    at a.B(B.java:1)", "done"]), {
    UNKNOWN: 2,
    ERROR: 1,
    "+ERROR": 1,
  });
  // A line with its own level after an entry with one is an entry, with or without digits.
  assert.deepEqual(
    tallied(["2024-03-02 11:22:33 INFO up", "WARNING: deprecated flag", "2024-03-02 11:22:34 INFO ok"]),
    { INFO: 2, WARN: 1 },
  );
  // An entry with a header and no level: its continuation lines are UNKNOWN too, counted as such.
  assert.deepEqual(tallied(["2024-03-02 11:22:33 started", "  details", "more details"]), {
    UNKNOWN: 1,
    "+UNKNOWN": 2,
  });
  // Continuation lines before any entry: under UNKNOWN.
  assert.deepEqual(tallied(["\tat a.B(B.java:1)", "2024-03-02 11:22:33 ERROR x"]), {
    "+UNKNOWN": 1,
    ERROR: 1,
  });
});

Deno.test("LevelTally: only java.util.logging's level names give their level to the stamped line before", () => {
  const enc = new TextEncoder();
  const codes = (lines: string[]) => {
    const t = new LevelTally();
    return lines.map((l) => {
      const b = enc.encode(l);
      const c = t.add(b, 0, b.length);
      return c >= CONTINUED ? `+${LEVELS[c - CONTINUED]}` : LEVELS[c];
    });
  };
  // Go: a plain `log` line, then the runtime's panic: the panic is an entry of its own.
  assert.deepEqual(
    codes([
      "2026/12/01 10:01:00 http: TLS handshake error from 10.0.0.9:51000: EOF",
      "panic: runtime error: x",
      "",
      "goroutine 1 [running]:",
      "   ",
    ]),
    // A blank line (or blanks only) continues the entry before it: the goroutine header is the panic's.
    ["UNKNOWN", "FATAL", "+FATAL", "+FATAL", "+FATAL"],
  );
  // java.util.logging's SimpleFormatter: the time line, then `SEVERE: …`, one ERROR entry.
  assert.deepEqual(
    codes(["Dec 01, 2026 10:00:00 AM com.example.App main", "SEVERE: Connection refused"]),
    ["UNKNOWN", "+ERROR"],
  );
});
