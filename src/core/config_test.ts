import assert from "node:assert/strict";
import { DEFAULT_LIMITS, readLimits } from "./config.ts";

Deno.test("readLimits takes defaults, overrides, and refuses values that are not whole numbers in range", () => {
  const warn: string[] = [];
  assert.deepEqual(readLimits(() => undefined, (m) => warn.push(m)), DEFAULT_LIMITS);
  const env: Record<string, string> = {
    LOGPEEK_SEARCH_MS: "0",
    LOGPEEK_SEARCH_BYTES: "1000",
    LOGPEEK_MAX_LINE: "",
  };
  const l = readLimits((n) => env[n], (m) => warn.push(m));
  assert.deepEqual([l.searchMs, l.searchBytes, l.maxLine], [0, 1000, 1000]);
  for (
    const [name, value] of [["LOGPEEK_SEARCH_MS", "-1"], ["LOGPEEK_TAIL_BYTES", "0"], [
      "LOGPEEK_MAX_LINE",
      "1.5",
    ], [
      "LOGPEEK_LEVELS_MS",
      "ten",
    ]]
  ) {
    assert.throws(() => readLimits((n) => (n === name ? value : undefined), () => {}), {
      name: "RangeError",
      message: new RegExp(`^${name} must be a whole number`),
    });
  }
  assert.deepEqual(warn, []);
});

Deno.test("readLimits uses the defaults, with one warning, when the environment may not be read", () => {
  const warn: string[] = [];
  const l = readLimits(() => {
    throw new Deno.errors.NotCapable("no env");
  }, (m) => warn.push(m));
  assert.deepEqual(l, DEFAULT_LIMITS);
  assert.equal(warn.length, 1);
  assert.match(warn[0], /--allow-env=LOGPEEK_TAIL_BYTES,/);
});

Deno.test("LOGPEEK_TZ: a zone Intl knows, canonical; anything else stops the start, naming the variable", () => {
  const tz = (v: string) => readLimits((n) => (n === "LOGPEEK_TZ" ? v : undefined), () => {}).tz;
  assert.equal(readLimits(() => undefined, () => {}).tz, "UTC");
  assert.equal(tz("Europe/Berlin"), "Europe/Berlin");
  assert.equal(tz("utc"), "UTC");
  assert.equal(tz("+0530"), "+05:30");
  for (const bad of ["Mars/Olympus", "+25:00", "local time"]) {
    assert.throws(
      () => tz(bad),
      { name: "RangeError", message: /^LOGPEEK_TZ must be a time zone: .*got/ },
      bad,
    );
  }
});

Deno.test("readLimits: a variable Deno may not read keeps its default, the others apply, stderr names it", () => {
  const warn: string[] = [];
  const env: Record<string, string> = {
    LOGPEEK_SEARCH_MS: "5",
    LOGPEEK_MAX_LINE: "77",
    LOGPEEK_TZ: "+02:00",
  };
  const l = readLimits((n) => {
    if (n === "LOGPEEK_PATTERNS_MS") throw new Deno.errors.NotCapable("no env");
    return env[n];
  }, (m) => warn.push(m));
  assert.deepEqual([l.searchMs, l.maxLine, l.patternsMs, l.tz], [5, 77, 30000, "+02:00"]);
  assert.equal(warn.length, 1);
  assert.match(warn[0], /cannot read LOGPEEK_PATTERNS_MS .*their defaults hold, the other variables apply/);
});
