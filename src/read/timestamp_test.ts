import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { epochNumberMs, HEAD_BYTES, JSON_BYTES, lineClock } from "./timestamp.ts";
import { zonedEpoch } from "./instant.ts";
import { sharedDir } from "../../tests/shared_dir.ts";

const enc = new TextEncoder();

/**
 * GNU `date`'s epoch ms for each text (one per line, `date -f -`), read in `tz`: the independent reading.
 * Fails when date refuses one.
 */
async function gnuDates(texts: string[], tz: string): Promise<number[]> {
  const p = new Deno.Command("date", {
    args: ["-f", "-", "+%s%3N"],
    env: { TZ: tz, LC_ALL: "C" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = p.output(); // read while writing: a full pipe would stall both
  const w = p.stdin.getWriter();
  await w.write(enc.encode(texts.join("\n") + "\n"));
  await w.close();
  const out = await output;
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split("\n").map(Number);
}

/**
 * Time of `line` read by `clock`, with bytes of another line around it (nothing past `end` may count);
 * `post` is what follows the line in the buffer.
 */
function timeIn(clock: ReturnType<typeof lineClock>, line: string, post = enc.encode("99:99\n")): number {
  const pre = enc.encode("2024-01-01 00:00:00 previous\n"), body = enc.encode(line);
  const buf = new Uint8Array(pre.length + body.length + post.length);
  buf.set(pre);
  buf.set(body, pre.length);
  buf.set(post, pre.length + body.length);
  return clock.timeOf(buf, pre.length, pre.length + body.length);
}

/**
 * What GNU `date` is given for each CSV row: the Date/Time columns rewritten only in ways `date` reads
 * (the year-less syslog logs get 2005, which a modification time of 2006-01-15 must also give).
 */
const TRUTH_TEXT: Record<string, (r: Record<string, string>) => string> = {
  Apache: (r) => r.Time, // "Sun Dec 04 04:47:44 2005"
  HDFS: (r) =>
    `20${r.Date.slice(0, 2)}-${r.Date.slice(2, 4)}-${r.Date.slice(4)} ` +
    `${r.Time.slice(0, 2)}:${r.Time.slice(2, 4)}:${r.Time.slice(4)}`, // 081109 203615
  Hadoop: (r) => `${r.Date} ${r.Time.replace(",", ".")}`, // 2015-10-18 18:01:47,978
  Linux: (r) => `${r.Date} ${r.Month} 2005 ${r.Time}`, // Jun 14 15:16:01
  OpenSSH: (r) => `${r.Day} ${r.Date} 2005 ${r.Time}`, // Dec 10 06:55:46 (its Date column is the month)
  Spark: (r) => `20${r.Date.replaceAll("/", "-")} ${r.Time}`, // 17/06/09 20:10:40
  Zookeeper: (r) => `${r.Date} ${r.Time.replace(",", ".")}`,
};

const shared = sharedDir("timestamps of the Loghub samples");

for (const tz of ["UTC", "Europe/Berlin", "America/New_York"]) {
  Deno.test({
    name: `timeOf: every line of the seven Loghub samples, against GNU date on the CSV columns (${tz})`,
    ignore: shared === null,
    async fn() {
      const dir = join(shared!, "corpus", "loghub");
      for (const [name, text] of Object.entries(TRUTH_TEXT)) {
        const rows = parse(Deno.readTextFileSync(join(dir, `${name}_2k.log_structured.csv`)), {
          columns: true,
        }) as Record<string, string>[];
        const want = await gnuDates(rows.map(text), tz);
        const lines = Deno.readTextFileSync(join(dir, `${name}_2k.log`)).split("\n");
        if (lines.at(-1) === "") lines.pop();
        assert.equal(lines.length, 2000, name);
        assert.equal(rows.length, 2000, name);
        // The log's modification time decides the year of syslog lines: mid-January 2006 puts
        // OpenSSH's December lines and Linux's June/July lines in 2005 (the New Year rollback).
        const clock = lineClock({ zone: tz, modifiedMs: Date.UTC(2006, 0, 15) });
        let matched = 0;
        for (let i = 0; i < lines.length; i++) {
          const t = timeIn(clock, lines[i]);
          assert.equal(t, want[i], `${name} line ${i + 1}: ${lines[i].slice(0, 60)}`);
          if (t === want[i]) matched++;
        }
        assert.equal(matched, 2000, name);
      }
    },
  });
}

const UTC_2006 = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2006, 0, 15) });
const iso = (t: number) => Number.isNaN(t) ? "none" : new Date(t).toISOString();

/** Lines of each layout and their times, written out by hand (UTC, modified 2006-01-15). */
const CASES: [string, string][] = [
  ["2015-10-18T18:01:47.978Z msg", "2015-10-18T18:01:47.978Z"],
  ["2015-10-18t18:01:47Z", "2015-10-18T18:01:47.000Z"],
  ["2015-10-18 18:01:47,978 INFO x", "2015-10-18T18:01:47.978Z"],
  ["2015-10-18 18:01 x", "2015-10-18T18:01:00.000Z"],
  ["2015-10-18T18:01:47.978123456Z", "2015-10-18T18:01:47.978Z"], // nanoseconds cut, not rounded
  ["2015-10-18T18:01:47.9+02:00", "2015-10-18T16:01:47.900Z"],
  ["2015-10-18T18:01:47-0530 x", "2015-10-18T23:31:47.000Z"],
  ["2015-10-18T18:01:47+05 x", "2015-10-18T13:01:47.000Z"],
  ["2015-10-18 18:01:47 -0700 x", "2015-10-19T01:01:47.000Z"],
  ["2015-10-18 18:01:47 - INFO x", "2015-10-18T18:01:47.000Z"], // a dash, not an offset
  ["2024/05/01 10:00:00 [error] 1#1: x", "2024-05-01T10:00:00.000Z"],
  ["<34>1 2003-10-11T22:14:15.003Z mymachine su - ID47", "2003-10-11T22:14:15.003Z"],
  ["<165>1 2003-08-24T05:14:15.000003-07:00 host", "2003-08-24T12:14:15.000Z"],
  ["Jun 14 15:16:01 combo sshd[1]: x", "2005-06-14T15:16:01.000Z"],
  ["Jun  4 15:16:01 combo x", "2005-06-04T15:16:01.000Z"],
  ["<13>Oct 11 22:14:15 mymachine x", "2005-10-11T22:14:15.000Z"],
  ["Jan 15 10:00:00.123 host x", "2006-01-15T10:00:00.123Z"],
  ["[Sun Dec 04 04:47:44 2005] [notice] x", "2005-12-04T04:47:44.000Z"],
  ["[Sun Dec 04 04:47:44.123456 2005] [core:notice] x", "2005-12-04T04:47:44.123Z"],
  [
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326',
    "2000-10-10T20:55:36.000Z",
  ],
  ['::1 - - [01/Jan/2024:00:00:00 +0000] "GET / HTTP/1.1" 200', "2024-01-01T00:00:00.000Z"],
  ['{"ts":1700000000.123,"msg":"x"}', "2023-11-14T22:13:20.123Z"],
  ['{"ts":1700000000123}', "2023-11-14T22:13:20.123Z"],
  ['{"time":1700000000123456}', "2023-11-14T22:13:20.123Z"],
  ['{"timestamp":1700000000123456789}', "2023-11-14T22:13:20.123Z"],
  ['{"@timestamp":"2024-01-02T03:04:05.678Z","level":"info"}', "2024-01-02T03:04:05.678Z"],
  ['{ "level": "info", "time" : "2024-01-02 03:04:05+01:00" }', "2024-01-02T02:04:05.000Z"],
  ['{"msg":"time","ctx":{"ts":1},"ts":1700000000}', "2023-11-14T22:13:20.000Z"], // nested "ts" is not it
  ['{"msg":"a \\"ts\\": 5","time":"bad","timestamp":"2024-01-02T03:04:05Z"}', "2024-01-02T03:04:05.000Z"],
  ["I0501 10:00:00.000000   12345 main.go:12] x", "2005-05-01T10:00:00.000Z"],
  ["E1231 23:59:59.999999 1 x.go:1] x", "2005-12-31T23:59:59.999Z"],
  ["081109 203615 148 INFO dfs.DataNode", "2008-11-09T20:36:15.000Z"],
  ["700101 000000 x", "1970-01-01T00:00:00.000Z"], // %y: 70 is 1970
  ["17/06/09 20:10:40 INFO executor", "2017-06-09T20:10:40.000Z"],
  ["2015-07-29 17:41:44,747 - INFO  [QuorumPeer", "2015-07-29T17:41:44.747Z"],
  ["1286536309.450    100 10.0.0.1 TCP_MISS/200", "2010-10-08T11:11:49.450Z"],
  ["INFO 2024-01-01 10:00:00 started", "2024-01-01T10:00:00.000Z"],
  ["WARNING: 2024-01-01 10:00:00 x", "2024-01-01T10:00:00.000Z"],
  ["[2024-01-01 10:00:00] local.ERROR: x", "2024-01-01T10:00:00.000Z"],
  ["[WARN] 2024-01-01 10:00:00 x", "2024-01-01T10:00:00.000Z"],
  ["INFO [2024-01-01 10:00:00,5] x", "2024-01-01T10:00:00.500Z"],
  ["2016-12-31T23:59:60Z leap", "2017-01-01T00:00:00.000Z"],
  ["Jun 4 15:16:01 host x", "2005-06-04T15:16:01.000Z"], // an unpadded day
  ['{"ts":"1700000000"}', "2023-11-14T22:13:20.000Z"],
  ["\uFEFF2024-01-01 10:00:00 after a byte order mark", "2024-01-01T10:00:00.000Z"],
];

Deno.test("timeOf: each layout, against Date.UTC written out by hand", () => {
  for (const [line, want] of CASES) assert.equal(iso(timeIn(UTC_2006, line)), want, line);
});

/** Lines with no time of their own. */
const NONE = [
  "\tat org.foo.Bar(Bar.java:12)",
  "    at org.foo.Bar(Bar.java:12)",
  "12345 requests served",
  "192.168.1.10 connected",
  "10.0.0.1",
  "1.2.3",
  "v1.2.3 released",
  "Backup finished at 2024-01-01 10:00:00",
  "ERROR retry at 2024-01-01 10:00:00",
  "Caused by: java.io.IOException: 2024-01-01 10:00:00",
  "   2024-01-01 10:00:00 indented",
  "2024-13-01 10:00:00 month 13",
  "2023-02-29 10:00:00 not a leap year",
  "2024-01-01 24:00:00 hour 24",
  "2024-01-01 10:60:00 minute 60",
  "2024-01-01 10:00:00123 runs on",
  "2024-01-01 x",
  "2024-01-01",
  "Jun 31 10:00:00 host x",
  "Jun 14 15:16 host",
  "June 14 15:16:01 host",
  "123456 1234567 x",
  "081309 203615 month 13",
  "I1301 10:00:00.000000 x",
  "X0501 10:00:00.000000 x",
  "[notice] 10/Oct/2000:13:55:36 -0700",
  "x [10/Oct/2000:13:55:36] no zone",
  '{"msg":"2024-01-01T00:00:00Z"}',
  '{"ts":"soon"}',
  '{"ts":true}',
  '{"ts":1e9}',
  '{"ts":-5}',
  "[]",
  "",
  "{",
  "<34>",
];

Deno.test("timeOf: lines that have no time of their own", () => {
  for (const line of NONE) assert.equal(iso(timeIn(UTC_2006, line)), "none", JSON.stringify(line));
});

Deno.test("timeOf: every prefix of every line reads the same whatever bytes follow its end", () => {
  const lines = [
    ...CASES.map(([l]) => l),
    ...NONE,
    'time="2024-01-02T03:04:05+01:00" level=info msg="a b"',
    "level=info ts=1700000000.5 caller=main.go:12",
    "01-31 10:00:00.123  1234  5678 I ActivityManager: x",
    "Jun 4 15:16:01 host x",
  ];
  const after = ["", "0", "99:99:99.999 +0200]", " UTC", ":00Z", "5 2005]", '","ts":1}', "\n"].map((a) =>
    enc.encode(a)
  );
  let timed = 0;
  for (const line of lines) {
    for (let n = 0; n <= line.length; n++) {
      const cut = line.slice(0, n);
      const want = iso(timeIn(UTC_2006, cut, after[0]));
      if (want !== "none") timed++;
      for (const a of after) {
        assert.equal(iso(timeIn(UTC_2006, cut, a)), want, `${JSON.stringify(cut)} + ${a}`);
      }
    }
  }
  assert.ok(timed > 500, `${timed} timed prefixes`);
});

Deno.test("timeOf: the bounded head: an access log's bracket and a JSON field past their limits", () => {
  const clf = "[10/Oct/2000:13:55:36 -0700]";
  const near = "h".repeat(HEAD_BYTES - 1) + clf, far = "h".repeat(HEAD_BYTES) + clf;
  assert.equal(iso(timeIn(UTC_2006, near)), "2000-10-10T20:55:36.000Z");
  assert.equal(iso(timeIn(UTC_2006, far)), "none");
  const pad = (n: number) => `{"msg":"${"m".repeat(n)}","ts":1700000000}`;
  const fits = JSON_BYTES - `{"msg":"","ts":1700000000}`.length;
  // the field's last digit is the limit's last byte (the closing brace may lie past it); then one past
  assert.equal(iso(timeIn(UTC_2006, pad(fits + 1))), "2023-11-14T22:13:20.000Z");
  assert.equal(iso(timeIn(UTC_2006, pad(fits + 2))), "none");
});

Deno.test("timeOf: a line cut short anywhere reads no byte past its end", () => {
  // Each prefix of a timed line, followed in the buffer by digits that would complete it wrongly.
  const line = "2015-10-18 18:01:47,978 INFO";
  for (let n = 0; n <= line.length; n++) {
    const t = timeIn(UTC_2006, line.slice(0, n));
    const want = n < 16 || n === 17 || n === 18
      ? "none"
      : n === 16
      ? "2015-10-18T18:01:00.000Z"
      : n < 21
      ? "2015-10-18T18:01:47.000Z"
      : n === 21
      ? "2015-10-18T18:01:47.900Z"
      : n === 22
      ? "2015-10-18T18:01:47.970Z"
      : "2015-10-18T18:01:47.978Z";
    assert.equal(iso(t), want, line.slice(0, n));
  }
});

Deno.test("timeOf: the year of year-less layouts rolls back over New Year", () => {
  const jan2 = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2024, 0, 2, 8) });
  assert.equal(iso(timeIn(jan2, "Dec 31 23:59:59 h x")), "2023-12-31T23:59:59.000Z");
  assert.equal(iso(timeIn(jan2, "Jan  2 07:00:00 h x")), "2024-01-02T07:00:00.000Z");
  // a day of slack: a clock a little ahead of the file's modification time stays in this year
  assert.equal(iso(timeIn(jan2, "Jan  3 08:00:00 h x")), "2024-01-03T08:00:00.000Z");
  assert.equal(iso(timeIn(jan2, "Jan  3 08:00:01 h x")), "2023-01-03T08:00:01.000Z");
  assert.equal(iso(timeIn(jan2, "W1231 23:59:59.5 x")), "2023-12-31T23:59:59.500Z");
  // February 29 goes back to the last leap year
  const y2023 = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2023, 5, 1) });
  assert.equal(iso(timeIn(y2023, "Feb 29 12:00:00 h x")), "2020-02-29T12:00:00.000Z");
  // the reference's year is the zone's: 2024-01-01T03:00Z is still 2023 in New York
  const ny = lineClock({ zone: "America/New_York", modifiedMs: Date.UTC(2024, 0, 1, 3) });
  assert.equal(iso(timeIn(ny, "Dec 31 21:00:00 h x")), "2024-01-01T02:00:00.000Z");
  // no modification time: now
  const now = lineClock({ zone: "UTC", modifiedMs: null });
  const t = timeIn(now, "Jan  1 00:00:00 h x");
  assert.equal(new Date(t).getUTCFullYear(), new Date(Date.now() + 86_400_000).getUTCFullYear());
});

Deno.test("timeOf: zone-less times in a named zone, and explicit offsets ignoring it, against GNU date", async () => {
  const lines = [
    "2024-03-10 01:59:59 x",
    "2024-03-10 03:00:00 x",
    "2024-11-03 00:59:59 x",
    "2024-11-03 01:30:00 x", // repeated: west of Greenwich the earlier, as GNU date
    "2024-11-03 02:00:00 x",
    "2024-07-01 12:00:00.250 x",
  ];
  const ny = lineClock({ zone: "America/New_York", modifiedMs: null });
  const want = await gnuDates(lines.map((l) => l.slice(0, l.length - 2)), "America/New_York");
  for (let i = 0; i < lines.length; i++) assert.equal(timeIn(ny, lines[i]), want[i], lines[i]);
  assert.equal(iso(timeIn(ny, "2024-07-01T12:00:00Z x")), "2024-07-01T12:00:00.000Z");
  assert.equal(iso(timeIn(ny, "[10/Oct/2000:13:55:36 +0200]")), "2000-10-10T11:55:36.000Z");
  assert.equal(iso(timeIn(ny, '{"ts":1700000000}')), "2023-11-14T22:13:20.000Z");
  // " UTC" and " GMT" after a time are zones; other words are not
  assert.equal(iso(timeIn(ny, "2024-07-01 12:00:00.5 UTC [42] LOG: x")), "2024-07-01T12:00:00.500Z");
  assert.equal(iso(timeIn(ny, "2024-07-01 12:00:00 GMT")), "2024-07-01T12:00:00.000Z");
  assert.equal(iso(timeIn(ny, "2024-07-01 12:00:00 UTCX x")), "2024-07-01T16:00:00.000Z");
  assert.equal(iso(timeIn(ny, "2024-07-01 12:00:00 CEST x")), "2024-07-01T16:00:00.000Z");
  // a fixed-offset zone
  const plus = lineClock({ zone: "+0530", modifiedMs: null });
  assert.equal(plus.zone, "+05:30");
  assert.equal(iso(timeIn(plus, "2024-01-01 05:30:00 x")), "2024-01-01T00:00:00.000Z");
  assert.throws(() => lineClock({ zone: "Mars/Olympus", modifiedMs: null }), RangeError);
});

Deno.test("epochNumberMs: units told apart by size", () => {
  const n = (s: string) => epochNumberMs(enc.encode(s), 0, s.length);
  assert.equal(n("0"), 0);
  assert.equal(n("99999999999"), 99999999999000); // < 1e11: seconds
  assert.equal(n("100000000000"), 100000000000); // 1e11: milliseconds
  assert.equal(n("1700000000.5"), 1700000000500);
  assert.equal(n("1700000000.98765"), 1700000000987);
  assert.equal(n("1700000000123.9"), 1700000000123);
  assert.equal(n("1700000000123456"), 1700000000123);
  assert.equal(n("1700000000123456789"), 1700000000123);
  assert.ok(Number.isNaN(n("1.")));
  assert.ok(Number.isNaN(n("")));
  assert.ok(Number.isNaN(n("12a")));
});

Deno.test("timeOf: logfmt fields and logcat heads", () => {
  const cases: [string, string][] = [
    ['time=2024-01-02T03:04:05.678Z level=INFO msg="started"', "2024-01-02T03:04:05.678Z"],
    ['time="2024-01-02T03:04:05+01:00" level=info msg="a b"', "2024-01-02T02:04:05.000Z"],
    ["level=info ts=2024-01-02T03:04:05.6Z caller=main.go:12", "2024-01-02T03:04:05.600Z"],
    ['level=info msg="time=2023-01-01T00:00:00Z" ts=1700000000', "2023-11-14T22:13:20.000Z"],
    ["ts=1700000000123 msg=x", "2023-11-14T22:13:20.123Z"],
    // Jan 31 2006 is past the modification time (Jan 15 2006) + a day: 2005
    ["01-31 10:00:00.123  1234  5678 I ActivityManager: x", "2005-01-31T10:00:00.123Z"],
    ["12-31 23:59:59.999 D/tag( 12): x", "2005-12-31T23:59:59.999Z"],
  ];
  for (const [line, want] of cases) assert.equal(iso(timeIn(UTC_2006, line)), want, line);
  const none = [
    "level=info msg=started",
    "user=bob time=soon",
    "note: time=2024-01-02T03:04:05Z", // not logfmt: the first field is not key=…
    'time="2024-01-02T03:04:05Z',
    "13-01 10:00:00.000 x",
    "Jun 4  15:16:01 x",
    "Jun 123 15:16:01 x",
    "Jun 0 15:16:01 x",
    "01-31 10:00 x",
  ];
  for (const line of none) assert.equal(iso(timeIn(UTC_2006, line)), "none", line);
});

Deno.test("timeOf: zoneUsed and yearInferred say what a reading assumed", () => {
  const c = lineClock({ zone: "Europe/Berlin", modifiedMs: Date.UTC(2006, 0, 15) });
  timeIn(c, "2024-01-02T03:04:05Z x");
  timeIn(c, '{"ts":1700000000}');
  timeIn(c, "no time here");
  assert.deepEqual([c.zoneUsed, c.yearInferred], [false, false]);
  timeIn(c, "2024-01-02 03:04:05 x");
  assert.deepEqual([c.zoneUsed, c.yearInferred], [true, false]);
  const s = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2006, 0, 15) });
  timeIn(s, "Jun 14 15:16:01 combo x");
  assert.deepEqual([s.zoneUsed, s.yearInferred], [true, true]);
});

Deno.test("timeOf: year-less lines on every day of the year, against the rule worked out by brute force", () => {
  // The rule, by brute force over candidate years with zonedEpoch (checked against GNU date in
  // instant_test.ts): the latest year whose reading is at or before the reference plus a day.
  for (const zone of ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/New_York"]) {
    for (const ref of [Date.UTC(2024, 0, 1, 3), Date.UTC(2024, 1, 29, 12), Date.UTC(2023, 11, 31, 20)]) {
      const clock = lineClock({ zone, modifiedMs: ref });
      for (let day = Date.UTC(2001, 0, 1); day < Date.UTC(2001, 11, 31); day += 86_400_000) {
        const mo = new Date(day).getUTCMonth() + 1, d = new Date(day).getUTCDate();
        for (const [h, mi, s] of [[0, 0, 0], [11, 30, 0], [23, 59, 59]]) {
          let want = NaN;
          for (let y = 2024; y >= 2016 && Number.isNaN(want); y--) {
            const t = zonedEpoch(zone, y, mo, d, h, mi, s, 0);
            if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d && t <= ref + 86_400_000) want = t;
          }
          const line = `${MONTH_NAMES[mo - 1]} ${String(d).padStart(2, " ")} ` +
            `${[h, mi, s].map((n) => String(n).padStart(2, "0")).join(":")} host x`;
          assert.equal(timeIn(clock, line), want, `${zone} ref ${new Date(ref).toISOString()}: ${line}`);
        }
      }
      // February 29 too (2001 has none)
      const feb29 = timeIn(clock, "Feb 29 12:00:00 host x");
      const leap = zonedEpoch(zone, 2024, 2, 29, 12, 0, 0, 0) <= ref + 86_400_000 ? 2024 : 2020;
      assert.equal(feb29, zonedEpoch(zone, leap, 2, 29, 12, 0, 0, 0), `${zone} Feb 29`);
    }
  }
});

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Issue #23 item 3: a log's lines, written here (not copied from any corpus), and the time of each line
 * as UTC text for GNU `date` (`-` for none). The clock learns the layout from the log's first bytes.
 */
const LEARNED: { kind: string; lines: string[]; want: string[] }[] = [
  {
    kind: "ANSI colour codes before and inside a syslog time",
    lines: [
      "\x1b[0m\x1b[32mMar  3 \x1b[0m\x1b[1m07:15:09\x1b[0m box cron[9]: \x1b[31mran\x1b[0m",
      "\x1b[2K plain",
    ],
    want: ["2005-03-03 07:15:09Z", "-"],
  },
  {
    kind: "date(1) with a zone word",
    lines: ["Tue Feb 6 11:02:03 UTC 2018 backup begun", "  /var/x", "Tue Feb 06 11:09:40 PST 2018 done"],
    want: ["2018-02-06 11:02:03Z", "-", "2018-02-06 11:09:40Z"], // PST is ambiguous: read in the zone (UTC)
  },
  {
    kind: "epoch milliseconds at the line start",
    lines: ["1600000000250 tick", "1600000001500 tock", "not a time"],
    want: ["@1600000000.250", "@1600000001.500", "-"],
  },
  {
    kind: "epoch nanoseconds after a pid (strace -ttt -f style)",
    lines: ["412 1650000000.123456 read(3, …) = 1", "413 1650000002.000001 close(3) = 0"],
    want: ["@1650000000.123", "@1650000002.000"],
  },
  {
    kind: "tcsh history's #+ epoch seconds",
    lines: ["#+1555555555", "ls -l", "#+1555555600", "make"],
    want: ["@1555555555", "-", "@1555555600", "-"],
  },
  {
    kind: "Zeek #fields with a ts column",
    lines: [
      "#separator \\x09",
      "#fields\tts\tuid\tproto",
      "#types\ttime\tstring\tenum",
      "1400000000.500000\tCx1\ttcp",
      "1400000009.250000\tCx2\tudp",
      "#close\t2014-05-13-16-53-29",
    ],
    want: ["-", "-", "-", "@1400000000.500", "@1400000009.250", "-"],
  },
  {
    kind: "W3C #Fields with date and time columns apart, not first",
    lines: [
      "#Version: 1.0",
      "#Fields: c-ip date time cs-method sc-status",
      "#Date: 2019-07-04 23:59:00", // a directive after #Fields keeps the columns
      "10.1.1.1 2019-07-04 23:59:58 GET 200",
      '"10.1.1.2" "2019-07-05" "00:00:03" "POST" "500"',
      "10.1.1.3 2019-7-5 00:00:04 GET 200",
    ],
    want: ["-", "-", "-", "2019-07-04 23:59:58Z", "2019-07-05 00:00:03Z", "-"], // the last: no such date
  },
  {
    kind: "W3C with #GMT-Offset (local times that far from UTC), the directive before #Fields",
    lines: ["#GMT-Offset: -0800", "#Fields: date time c-ip", "2001-10-31 00:00:18 10.0.0.1"],
    want: ["-", "-", "2001-10-31 08:00:18Z"],
  },
  {
    kind: "journald JSON __REALTIME_TIMESTAMP (microseconds as a string)",
    lines: [
      '{ "__CURSOR" : "s=1", "__REALTIME_TIMESTAMP" : "1580000000654321", "__MONOTONIC_TIMESTAMP" : "99", "MESSAGE" : "hi" }',
    ],
    want: ["@1580000000.654"],
  },
  {
    kind: "log4j2 JsonLayout instant",
    lines: [
      '{"instant":{"epochSecond":1590000000,"nanoOfSecond":987000000},"thread":"main","level":"INFO"}',
      '{"instant":{"epochSecond":1590000060,"nanoOfSecond":5000000},"thread":"w-1","level":"WARN"}',
    ],
    want: ["@1590000000.987", "@1590000060.005"],
  },
  {
    kind: "MongoDB $date, and a line whose learned field fails",
    lines: [
      '{"t":{"$date":"2021-11-30T08:00:00.100+01:00"},"s":"I","msg":"up"}',
      '{"t":{"$date":"2021-11-30T08:00:01.000+01:00"},"s":"W","msg":"slow"}',
      '{"t":{"$date":"soon"},"s":"W","time":"2021-11-30T08:00:02Z"}',
    ],
    want: ["2021-11-30 07:00:00.100Z", "2021-11-30 07:00:01Z", "-"], // failed where learned: untimed
  },
  {
    kind: "a deeply nested time field (OTel) and Cloudflare-style named fields",
    lines: [
      '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1620000000111000000","body":"a"}]}]}]}',
      '{"Host":"x","EdgeStartTimestamp":1620000005000000000,"EdgeResponseStatus":200}',
    ],
    want: ["@1620000000.111", "-"], // the second line holds another field than the one learned: general rules
  },
  {
    kind: "a time after a compose prefix, two services",
    lines: [
      "api-1     | 2023-03-04T05:06:07.891234Z GET /",
      "cache-1   | 7:M 04 Mar 2023 05:06:08.002 * Ready to accept connections",
      "api-1     | 2023-03-04T05:06:09Z GET /x",
      "cache-1   | 7:M 04 Mar 2023 05:06:10.500 * saved",
      "api-1     |  plain text",
    ],
    want: [
      "2023-03-04 05:06:07.891Z",
      "2023-03-04 05:06:08.002Z",
      "2023-03-04 05:06:09Z",
      "2023-03-04 05:06:10.500Z",
      "-",
    ],
  },
  {
    kind: "kubectl logs --prefix, and a caddy-style JSON after a prefix",
    lines: [
      "[pod/web-7f9/nginx] 2022-08-09T10:11:12.131415161Z 10.0.0.1 GET /",
      "[pod/web-7f9/nginx] 2022-08-09T10:11:13Z 10.0.0.2 GET /",
    ],
    want: ["2022-08-09 10:11:12.131Z", "2022-08-09 10:11:13Z"],
  },
  {
    kind: "JSON after a prefix",
    lines: [
      'proxy  | {"level":"info","ts":1666666666.5,"msg":"a"}',
      'proxy  | {"level":"info","ts":1666666667.25}',
    ],
    want: ["@1666666666.500", "@1666666667.250"],
  },
  {
    kind: "a thread tag and a file name before the time",
    lines: [
      "Worker-3::DEBUG::2010-10-10 10:10:10,010::x.py::1 go",
      "Worker-3::DEBUG::2010-10-10 10:10:11,500::x.py::2 on",
    ],
    want: ["2010-10-10 10:10:10.010Z", "2010-10-10 10:10:11.500Z"],
  },
  {
    kind: "a file name before the time (grep -H)",
    lines: ["app.log:2011-02-03 04:05:06 start", "app.log:2011-02-03 04:05:07 stop", "other.log:x"],
    want: ["2011-02-03 04:05:06Z", "2011-02-03 04:05:07Z", "-"],
  },
  {
    kind: "compact and ordinal ISO dates",
    lines: [
      "20190304.050607,891:INFO:a",
      "20190304T050608Z b",
      "2019-063T05:06:09.5Z c",
      "2020-366T00:00:00Z leap",
    ],
    want: [
      "2019-03-04 05:06:07.891Z",
      "2019-03-04 05:06:08Z",
      "2019-03-04 05:06:09.500Z",
      "2020-12-31 00:00:00Z",
    ],
  },
  {
    kind: "TAI64N (multilog)",
    lines: ["@400000005e0be10a1dcd6500 run: up", "@4000000000000000000000000 too early"],
    want: ["@1577836800.500", "-"], // 0x5e0be10a - 10 = 1577836800; 0x1dcd6500 ns = 0.5 s
  },
  {
    kind: "Grafana's logfmt t=",
    lines: ['logger=sqlstore t=2024-09-10T11:12:13.141516171Z level=info msg="ok"'],
    want: ["2024-09-10 11:12:13.141Z"],
  },
  {
    kind: "MySQL slow log # Time: (both forms)",
    lines: [
      "# Time: 2020-06-07T08:09:10.111213Z",
      "# User@Host: u[u] @ h []",
      "# Time: 200607  8:09:11",
      "SELECT 1;",
    ],
    want: ["2020-06-07 08:09:10.111Z", "-", "2020-06-07 08:09:11Z", "-"],
  },
  {
    kind: "time-of-day-only lines stay untimed",
    lines: ["12:00:01.000001 open(x) = 3", "12:00:01.000009 close(3) = 0"],
    want: ["-", "-"],
  },
  {
    kind: "a time later in a message is not learned from one line",
    lines: ["job 17 finished at 2024-01-01 10:00:00 ok", "job 18 queued", "job 19 queued"],
    want: ["-", "-", "-"],
  },
];

Deno.test("timeOf: layouts learned from a log's first lines, every kind of issue #23 (against GNU date)", async () => {
  const texts = LEARNED.flatMap((c) => c.want.filter((w) => w !== "-"));
  const dates = await gnuDates(texts, "UTC");
  const truth = new Map(texts.map((t, i) => [t, dates[i]]));
  for (const c of LEARNED) {
    const sample = enc.encode(c.lines.join("\n") + "\n");
    const clock = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2006, 0, 15), sample });
    c.lines.forEach((line, i) => {
      const want = c.want[i] === "-" ? "none" : iso(truth.get(c.want[i])!);
      assert.equal(iso(timeIn(clock, line)), want, `${c.kind}, line ${i + 1}: ${JSON.stringify(line)}`);
    });
  }
});

Deno.test("timeOf: without a sample no layout is learned (epoch digits and prefixes are not guessed)", () => {
  for (const line of ["1600000000250 tick", "api-1  | 2023-03-04T05:06:07Z x", "#+1555555555"]) {
    assert.equal(iso(timeIn(UTC_2006, line)), "none", line);
  }
  const c = lineClock({ zone: "UTC", modifiedMs: null });
  timeIn(c, "08:09:33.814936 execve()");
  timeIn(c, "2024-01-01 08:09:33 x");
  assert.equal(c.timeOfDayLines, 1);
});

Deno.test("timeOf: java.util.logging's SimpleFormatter time (Mmm d, yyyy h:mm:ss AM/PM), as GNU date reads it", async () => {
  const times = [
    "Dec 01, 2026 10:00:00 AM",
    "Mar 1, 2024 12:05:09 AM",
    "Mar 1, 2024 12:05:09 PM",
    "Jul 4, 2025 1:02:03 PM",
    "Feb 29, 2024 11:59:59 PM",
  ];
  const want = await gnuDates(times, "UTC");
  const clock = lineClock({ zone: "UTC", modifiedMs: Date.UTC(2026, 11, 1) });
  for (let i = 0; i < times.length; i++) {
    assert.equal(iso(timeIn(clock, `${times[i]} com.example.App main`)), iso(want[i]), times[i]);
  }
  // Not that layout: a 13th hour, a missing AM/PM, a day past the month's, a word glued to PM.
  for (
    const bad of [
      "Mar 1, 2024 13:05:09 PM x",
      "Mar 1, 2024 1:05:09 x",
      "Feb 30, 2024 1:05:09 AM x",
      "Mar 1, 2024 1:05:09 PMx",
    ]
  ) {
    assert.equal(iso(timeIn(clock, bad)), "none", bad);
  }
});
