import assert from "node:assert/strict";
import { join } from "node:path";
import { levelOf, LEVELS } from "./level.ts";
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
