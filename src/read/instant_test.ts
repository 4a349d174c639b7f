import assert from "node:assert/strict";
import {
  checkZone,
  daysFromCivil,
  daysInMonth,
  formatInstant,
  parseInstant,
  wallToEpoch,
  zonedEpoch,
} from "./instant.ts";

const dec = new TextDecoder();

/** GNU `date`: `date -d text +format` in `tz` (the independent reading), or null when date refuses. */
function gnu(tz: string, text: string, format = "+%s%3N"): string | null {
  const out = new Deno.Command("date", {
    args: ["-d", text, format],
    env: { TZ: tz, LC_ALL: "C" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  return out.code === 0 ? dec.decode(out.stdout).trim() : null;
}

Deno.test("checkZone: canonical names, offsets, and a RangeError naming an unknown zone", () => {
  assert.equal(checkZone("UTC"), "UTC");
  assert.equal(checkZone("utc"), "UTC");
  assert.equal(checkZone("Z"), "UTC");
  assert.equal(checkZone("Etc/UTC"), "UTC");
  assert.equal(checkZone("europe/berlin"), "Europe/Berlin");
  assert.equal(checkZone(" America/New_York "), "America/New_York");
  assert.equal(checkZone("+02:00"), "+02:00");
  assert.equal(checkZone("+0530"), "+05:30");
  assert.equal(checkZone("-08"), "-08:00");
  assert.equal(checkZone("+00:00"), "+00:00");
  assert.throws(() => checkZone("Mars/Olympus"), (e: unknown) => {
    assert.ok(e instanceof RangeError);
    assert.match(e.message, /"Mars\/Olympus"/);
    assert.match(e.message, /Europe\/Berlin/);
    return true;
  });
  assert.throws(() => checkZone("+25:00"), RangeError);
  assert.throws(() => checkZone(""), RangeError);
});

Deno.test("daysFromCivil and daysInMonth agree with Date.UTC over 1600..2400", () => {
  for (let y = 1600; y <= 2400; y += 7) {
    for (let mo = 1; mo <= 12; mo++) {
      assert.equal(daysFromCivil(y, mo, 1) * 86_400_000, Date.UTC(y, mo - 1, 1), `${y}-${mo}`);
      // the last day: the day before the next month's first, as Date counts it
      assert.equal(daysInMonth(y, mo), new Date(Date.UTC(y, mo, 0)).getUTCDate(), `${y}-${mo}`);
    }
  }
  assert.equal(daysInMonth(2000, 2), 29);
  assert.equal(daysInMonth(1900, 2), 28);
  assert.equal(daysInMonth(2024, 13), 0);
});

Deno.test("zonedEpoch: wall times in zones, against GNU date (DST gaps and repeats included)", () => {
  const cases: [string, number, number, number, number, number, number][] = [
    ["UTC", 2015, 10, 18, 18, 1, 47],
    ["Europe/Berlin", 2024, 3, 31, 1, 59, 59], // before the spring change
    ["Europe/Berlin", 2024, 3, 31, 3, 0, 0], // after it
    ["Europe/Berlin", 2024, 10, 27, 2, 30, 0], // repeated: east of Greenwich the later (+01:00)
    ["Europe/Berlin", 2024, 10, 27, 3, 0, 0],
    ["America/New_York", 2024, 11, 3, 1, 30, 0], // repeated: west of Greenwich the earlier (-04:00)
    ["America/Los_Angeles", 2024, 11, 3, 1, 0, 0],
    ["Asia/Tehran", 2022, 9, 21, 23, 30, 0], // Iran's last change: 24:00 → 23:00, repeated
    ["Pacific/Apia", 2011, 12, 29, 12, 0, 0], // the day before Samoa skipped a day
    ["America/New_York", 2024, 11, 3, 1, 59, 59],
    ["America/New_York", 2024, 11, 3, 2, 0, 0],
    ["America/New_York", 2024, 3, 10, 1, 59, 59],
    ["America/New_York", 2024, 3, 10, 3, 0, 0],
    ["America/New_York", 1999, 12, 31, 23, 59, 59],
    ["Asia/Kolkata", 2024, 6, 1, 12, 0, 0],
    ["Australia/Lord_Howe", 2024, 4, 7, 1, 45, 0], // a 30-minute change, repeated: the later
    ["Australia/Lord_Howe", 2024, 10, 6, 2, 45, 0],
    ["Pacific/Chatham", 2024, 9, 29, 4, 0, 0],
    ["America/Sao_Paulo", 2010, 10, 17, 1, 0, 0], // skipped at midnight: refused by date, see below
  ];
  for (const [tz, y, mo, d, h, mi, s] of cases) {
    const text = `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")} ` +
      `${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
    const want = gnu(tz, text);
    assert.notEqual(want, null, `${tz} ${text}`);
    assert.equal(zonedEpoch(tz, y, mo, d, h, mi, s, 0), Number(want), `${tz} ${text}`);
    assert.equal(zonedEpoch(tz, y, mo, d, h, mi, s, 250), Number(want) + 250, `${tz} ${text}.250`);
  }
});

Deno.test("zonedEpoch: a skipped wall time (GNU date refuses it) is read with the offset before the jump", () => {
  const gaps: [string, string, string][] = [
    ["America/New_York", "2024-03-10 02:30:00", "-0500"],
    ["Europe/Berlin", "2024-03-31 02:15:00", "+0100"],
    ["Australia/Lord_Howe", "2024-10-06 02:15:00", "+1030"],
    ["America/Sao_Paulo", "2010-10-17 00:30:00", "-0300"],
  ];
  for (const [tz, text, before] of gaps) {
    assert.equal(gnu(tz, text), null, `${tz} ${text} is skipped there`);
    const [date, time] = text.split(" ");
    const [y, mo, d] = date.split("-").map(Number), [h, mi, s] = time.split(":").map(Number);
    assert.equal(zonedEpoch(tz, y, mo, d, h, mi, s, 0), Number(gnu("UTC", `${text} ${before}`)), tz);
  }
});

Deno.test("wallToEpoch: the per-local-hour cache, every 97 minutes through 2024, against GNU date", async () => {
  for (const tz of ["America/New_York", "Australia/Lord_Howe", "Europe/Berlin"]) {
    const toEpoch = wallToEpoch(tz);
    const texts: string[] = [];
    for (let w = Date.UTC(2024, 0, 1); w < Date.UTC(2025, 0, 1); w += 97 * 60_000) {
      texts.push(new Date(w).toISOString().slice(0, 19).replace("T", " "));
    }
    // date -f prints nothing for a time it refuses (a skipped one) and goes on: a sentinel line read
    // as 0 after each sample keeps the answers in step.
    const p = new Deno.Command("date", {
      args: ["-f", "-", "+%s%3N"],
      env: { TZ: tz, LC_ALL: "C" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const output = p.output(); // read while writing: a full pipe would stall both
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode(texts.map((t) => `${t}\n1970-01-01 00:00:00Z\n`).join("")));
    await w.close();
    const got = dec.decode((await output).stdout).trim().split("\n").map(Number);
    let j = 0, refused = 0, checked = 0;
    for (const text of texts) {
      if (got[j] === 0) {
        refused++;
        j++;
        continue;
      }
      const [date, time] = text.split(" ");
      const [y, mo, d] = date.split("-").map(Number), [h, mi, s] = time.split(":").map(Number);
      assert.equal(toEpoch(Date.UTC(y, mo - 1, d, h, mi, s)), got[j], `${tz} ${text}`);
      assert.equal(got[j + 1], 0);
      j += 2;
      checked++;
    }
    assert.equal(j, got.length);
    assert.ok(refused <= 2 && checked >= 5400, `${tz}: ${checked} checked, ${refused} skipped times`);
  }
});

Deno.test("formatInstant: RFC 3339 with the zone's offset, against GNU date", () => {
  const t = Date.UTC(2015, 9, 18, 18, 1, 47, 978);
  assert.equal(formatInstant(t, "UTC"), "2015-10-18T18:01:47.978Z");
  assert.equal(formatInstant(t - 978, "UTC"), "2015-10-18T18:01:47Z");
  for (const tz of ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Europe/London"]) {
    for (
      const at of [t, Date.UTC(2024, 0, 15, 12), Date.UTC(2024, 10, 3, 5, 30), Date.UTC(2024, 10, 3, 6, 30)]
    ) {
      const want = gnu(tz, `@${Math.floor(at / 1000)}`, "+%Y-%m-%dT%H:%M:%S%:z")!;
      const frac = at % 1000 === 0 ? "" : `.${String(at % 1000).padStart(3, "0")}`;
      assert.equal(formatInstant(at, tz), want.slice(0, 19) + frac + want.slice(19), `${tz} ${at}`);
    }
  }
  assert.equal(formatInstant(0, "+05:30"), "1970-01-01T05:30:00+05:30");
  assert.equal(formatInstant(-1, "UTC"), "1969-12-31T23:59:59.999Z");
  assert.throws(() => formatInstant(NaN, "UTC"), RangeError);
  assert.throws(() => formatInstant(0, "Mars/Olympus"), RangeError);
});

Deno.test("parseInstant: instants, against GNU date", () => {
  const now = Date.UTC(2024, 4, 1, 12);
  const cases: [string, string, string][] = [
    // [argument, zone, what GNU date is given in that zone]
    ["2024-05-01T10:00:00Z", "UTC", "2024-05-01 10:00:00Z"],
    ["2024-05-01t10:00:00z", "America/New_York", "2024-05-01 10:00:00Z"],
    ["2024-05-01 10:00:00", "UTC", "2024-05-01 10:00:00"],
    ["2024-05-01 10:00:00", "Europe/Berlin", "2024-05-01 10:00:00"],
    ["2024-05-01T10:00", "America/New_York", "2024-05-01 10:00"],
    ["2024-05-01", "Europe/Berlin", "2024-05-01 00:00"],
    ["2024-05-01T10:00:00.5Z", "UTC", "2024-05-01 10:00:00.5Z"],
    ["2024-05-01T10:00:00,123456789+02:00", "UTC", "2024-05-01 10:00:00.123 +0200"],
    ["2024-05-01T10:00:00-0530", "Europe/Berlin", "2024-05-01 10:00:00 -0530"],
    ["2024-11-03 01:30:00", "America/New_York", "2024-11-03 01:30:00"], // repeated: the earlier
    ["  2024-05-01T10:00:00Z  ", "UTC", "2024-05-01 10:00:00Z"],
  ];
  for (const [arg, zone, text] of cases) {
    assert.equal(parseInstant(arg, now, zone), Number(gnu(zone, text)), `${arg} in ${zone}`);
  }
  // a leap second is the next second's start
  assert.equal(parseInstant("2016-12-31T23:59:60Z", now, "UTC"), Date.UTC(2017, 0, 1));
});

Deno.test("parseInstant: durations back from now", () => {
  const now = Date.UTC(2024, 4, 1, 12);
  assert.equal(parseInstant("-30s", now, "UTC"), now - 30_000);
  assert.equal(parseInstant("-15m", now, "UTC"), now - 900_000);
  assert.equal(parseInstant("-2h", now, "Europe/Berlin"), now - 7_200_000);
  assert.equal(parseInstant("-3d", now, "UTC"), now - 3 * 86_400_000);
  assert.equal(parseInstant("-1w", now, "UTC"), now - 7 * 86_400_000);
  assert.equal(parseInstant("-0m", now, "UTC"), now);
  assert.equal(parseInstant(" -15m ", now, "UTC"), now - 900_000);
  assert.equal(parseInstant("-1h30m", now, "UTC"), now - 5_400_000);
  assert.equal(parseInstant("-1d12h", now, "UTC"), now - 36 * 3_600_000);
  assert.equal(parseInstant("now", now, "UTC"), now);
  assert.equal(parseInstant("NOW", now, "Europe/Berlin"), now);
});

Deno.test("parseInstant: errors say what was given and what is accepted", () => {
  const bad: [string, RegExp][] = [
    ["", /cannot read "" as a time/],
    ["yesterday", /cannot read "yesterday"/],
    ["15m", /write "-15m"/],
    ["-2 hours", /whole numbers with units s, m, h, d, w/],
    ["-2y", /whole numbers with units s, m, h, d, w/],
    ["-1.5h", /whole numbers with units s, m, h, d, w/],
    ["-15M", /whole numbers with units s, m, h, d, w/], // months or minutes? neither
    ["1h30m", /write "-1h30m"/],
    ["-", /cannot read "-"/],
    ["+15m", /cannot read "\+15m"/],
    ["2024-13-01", /no month 13/],
    ["2023-02-29", /no day 29 of 2023-02/],
    ["2024-05-01T24:00", /no hour 24/],
    ["2024-05-01T10:61", /no minute 61/],
    ["2024-05-01T10:00:61Z", /no second 61/],
    ["2024-05-01T10:00:00+24:00", /no offset \+24:00/],
    ["2024-05-01T10:00:00 UTC", /cannot read/],
    ["1714557600", /cannot read/],
    ["05/01/2024", /cannot read/],
  ];
  for (const [arg, want] of bad) {
    assert.throws(() => parseInstant(arg, 0, "UTC"), (e: unknown) => {
      assert.ok(e instanceof RangeError, arg);
      assert.match(e.message, want, arg);
      assert.match(e.message, /"-15m"/, arg); // says what is accepted
      return true;
    });
  }
});
