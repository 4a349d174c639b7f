import assert from "node:assert/strict";
import { openLog } from "../source/local/log_file.ts";
import { openRoots, type Root } from "../source/local/roots.ts";
import { CONTINUED, LEVELS, LevelTally, UNKNOWN } from "./level.ts";
import { EntryLevels, isContinuation, levelCode, UNRESOLVED } from "./entry_levels.ts";
import { searchLog } from "./search.ts";
import { tailLog } from "./tail.ts";
import { countLevels } from "./count_levels.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";

const dir = Deno.makeTempDirSync({ prefix: "logpeek-entry-levels-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots: Root[] = openRoots([dir], "/");
const limits = { ...DEFAULT_LIMITS, searchMs: 1e9, levelsMs: 1e9 };
const enc = new TextEncoder();
const PIECES = [1, 3, 7, 64, 1000, 65536];

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

/** Entries of the kinds `entry_levels.ts` tells apart, each as its lines. */
const ENTRIES: ((r: () => number, i: number) => string[])[] = [
  // A stamped header with a level, and a Java stack trace of a few frames.
  (r, i) => {
    const lvl = ["INFO", "WARN", "ERROR", "DEBUG"][Math.floor(r() * 4)];
    const out = [`2024-05-01 10:00:${String(i % 60).padStart(2, "0")},123 ${lvl} [main] c.x.Y - step ${i}`];
    if (r() < 0.4) {
      out.push("java.lang.IllegalStateException: boom");
      for (let k = Math.floor(r() * 6); k >= 0; k--) out.push(`\tat com.x.Y.f${k}(Y.java:${k + 1})`);
      if (r() < 0.5) out.push("Caused by: java.io.IOException: gone", "\t... 3 more");
    }
    return out;
  },
  // Laravel: a local.ERROR header, [stacktrace], PHP frames, "} and an unstamped end.
  (r, i) => {
    const out = [`[2024-05-01 10:00:00] local.ERROR: failed ${i} {"exception":"[object] x"}`, "[stacktrace]"];
    for (let k = 0; k < 1 + Math.floor(r() * 5); k++) out.push(`#${k} /app/x.php(${k + 3}): f()`);
    out.push('"} ');
    return out;
  },
  // Python: a header, then a traceback.
  (_r, i) => [
    `2024-05-01 10:00:00,001 ERROR worker: task ${i} failed`,
    "Traceback (most recent call last):",
    '  File "x.py", line 3, in f',
    "ValueError: bad",
  ],
  // java.util.logging's SimpleFormatter: a time line with no level, then SEVERE: on the next.
  (r, i) => [`Dec 01, 2026 1:00:0${i % 10} AM com.x.Y run`, `${r() < 0.5 ? "SEVERE" : "WARNING"}: step ${i}`],
  // A stamped line with no level, alone, or followed by unstamped lines with none.
  (r, i) => [`2024-05-01 10:00:00 request ${i} done`, ...(r() < 0.3 ? ["  extra detail", "more text"] : [])],
  // Unstamped lines: with a level (an entry of its own), with none, blank.
  (_r, i) => [`ERROR: disk ${i} failed`],
  (_r, i) => [`plain words ${i}`],
  () => [""],
  // JSON records.
  (r, i) => [`{"level":"${r() < 0.5 ? "warn" : "info"}","msg":"m ${i}"}`],
];

/** A random log of such entries (LF or CRLF), and its lines. */
function randomLog(r: () => number, n: number): { bytes: Uint8Array; lines: string[] } {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(...ENTRIES[Math.floor(r() * ENTRIES.length)](r, i));
  lines.push("2024-05-01 10:00:00 INFO end"); // a file's last line is never empty: a blank after its last LF is no line
  const crlf = r() < 0.3;
  const text = lines.join(crlf ? "\r\n" : "\n") + (r() < 0.8 ? (crlf ? "\r\n" : "\n") : "");
  return { bytes: enc.encode(text), lines };
}

/**
 * The reference: each line's code as `log_levels` counts it, from a LevelTally over the whole file in
 * order (a line's count moved by the line after it, `SEVERE:` under a time line, moved here too).
 */
function reference(lines: string[]): number[] {
  const t = new LevelTally();
  const codes: number[] = [];
  for (const l of lines) {
    const b = enc.encode(l);
    const before = Array.from(t.counts);
    const code = t.add(b, 0, b.length);
    // The tally took one from UNKNOWN's entries for the line before: that line is of this level.
    if (code >= CONTINUED && t.counts[UNKNOWN] < before[UNKNOWN]) codes[codes.length - 1] = code - CONTINUED;
    codes.push(code);
  }
  return codes;
}

Deno.test("EntryLevels: every line of 60 random logs, in order and from random offsets, at random bounds: its level as the whole file's LevelTally gives it, or UNRESOLVED (never another level); a bound over the file never UNRESOLVED", () => {
  const r = rng(4242);
  let unresolved = 0, lines = 0;
  for (let t = 0; t < 60; t++) {
    const log = randomLog(r, 5 + Math.floor(r() * 60));
    const want = reference(log.lines);
    const starts: number[] = [];
    for (let i = 0, off = 0; i < log.lines.length; i++) {
      starts.push(off);
      off += enc.encode(log.lines[i]).length +
        (log.bytes[off + enc.encode(log.lines[i]).length] === 13 ? 2 : 1);
    }
    const reader = { readRange: (o: number, n: number) => log.bytes.slice(o, o + n) };
    for (const bound of [log.bytes.length + 1, 1 + Math.floor(r() * 300)]) {
      const e = new EntryLevels(reader, 0, log.bytes.length, bound);
      const whole = bound > log.bytes.length;
      // Lines in order, some skipped (as a search's candidates), each asked with `ahead`.
      for (let i = 0; i < log.lines.length; i++) {
        if (r() < 0.4) continue;
        // The file's own bytes, as the scanner gives a line: its end of line (a CR, an LF) after it.
        const len = enc.encode(log.lines[i]).length;
        const got = e.levelAt(log.bytes, starts[i], starts[i] + len, -1, starts[i], false, true);
        lines++;
        if (got === UNRESOLVED) {
          assert.ok(!whole, `log ${t} line ${i + 1}: unresolved with the whole file in reach`);
          unresolved++;
          continue;
        }
        assert.equal(
          levelCode(got),
          levelCode(want[i]),
          `log ${t} bound ${bound} line ${i + 1}: ${log.lines[i]} got ${got} want ${want[i]} next ${
            log.lines[i + 1]
          } prev ${log.lines[i - 1]}`,
        );
        assert.equal(isContinuation(got), isContinuation(want[i]), `log ${t} line ${i + 1} continuation`);
      }
    }
  }
  assert.ok(unresolved > 0 && unresolved < lines / 2, `${unresolved} of ${lines} unresolved at small bounds`);
});

Deno.test("EntryLevels: a frame 1,000 frames below its header is UNRESOLVED at a 1 KiB bound, and ERROR's continuation at the default bound", () => {
  const lines = ["2024-05-01 10:00:00 ERROR boom", "java.lang.IllegalStateException: x"];
  for (let k = 0; k < 1000; k++) lines.push(`\tat com.x.Y.f(Y.java:${k})`);
  const bytes = enc.encode(lines.join("\n") + "\n");
  const reader = { readRange: (o: number, n: number) => bytes.slice(o, o + n) };
  const last = enc.encode(lines.at(-1)!);
  const off = bytes.length - last.length - 1;
  const near = new EntryLevels(reader, 0, bytes.length, 1024);
  assert.equal(near.levelAt(last, 0, last.length, -1, off, false), UNRESOLVED);
  assert.equal(near.unresolved, 1);
  const far = new EntryLevels(reader, 0, bytes.length);
  assert.equal(far.levelAt(last, 0, last.length, -1, off, false), CONTINUED + LEVELS.indexOf("ERROR"));
  // A .gz (no reader): only a line that fixes its own state, or one right after a line given.
  const gz = new EntryLevels(null, 0, Infinity);
  assert.equal(gz.levelAt(last, 0, last.length, -1, off, false), UNRESOLVED);
});

/** Each line of a log as the reader tools give it, by number: level and continuation. */
function shown(m: { line_no: number | null; level: string; continuation?: boolean }) {
  return `${m.line_no} ${m.level}${m.continuation ? "+" : ""}`;
}

Deno.test("log_search and log_tail give each line its entry's level, at every piece size: 30 random logs, a literal (needle), a regex (every line), context lines, each level filter; matches per level equal log_levels' counts", async () => {
  const r = rng(77);
  for (let t = 0; t < 30; t++) {
    const log = randomLog(r, 10 + Math.floor(r() * 80));
    Deno.writeFileSync(`${dir}/e.log`, log.bytes);
    const want = reference(log.lines);
    const ref = (no: number) =>
      `${no} ${LEVELS[levelCode(want[no - 1])]}${isContinuation(want[no - 1]) ? "+" : ""}`;
    using f = await openLog(roots, "e.log");
    const counts = (await countLevels(f, limits)).counts;
    const pieceSize = PIECES[t % PIECES.length];
    const base = { ...limits, pieceSize, limit: 100000, redact: false, maxLine: 2000 };
    for (const text of ["e", "at ", "x"]) {
      const got = await searchLog(f, { ...base, text });
      const expect = log.lines.flatMap((l, i) => (l.includes(text) ? [ref(i + 1)] : []));
      assert.deepEqual(got.matches.map(shown), expect, `log ${t} piece ${pieceSize} text ${text}`);
    }
    for (const level of LEVELS) {
      const all = await searchLog(f, { ...base, text: "^", regex: true, level });
      assert.equal(all.matches.length, counts[level], `log ${t} piece ${pieceSize}: regex ^ level ${level}`);
      assert.deepEqual(
        all.matches.map(shown),
        want.flatMap((c, i) => (LEVELS[levelCode(c)] === level ? [ref(i + 1)] : [])),
      );
      const lit = await searchLog(f, { ...base, text: "e", level });
      const expect = log.lines.flatMap((l, i) =>
        l.includes("e") && LEVELS[levelCode(want[i])] === level ? [ref(i + 1)] : []
      );
      assert.deepEqual(lit.matches.map(shown), expect, `log ${t} piece ${pieceSize}: "e" level ${level}`);
      const tail = await tailLog(f, { ...base, lines: 200, level, tailBytes: 1e9, gzipMs: 1e9 });
      assert.deepEqual(tail.lines.map(shown), all.matches.slice(-200).map(shown), `tail level ${level}`);
    }
    // Context lines (the lines around each match) too: each shown line's level is its entry's.
    const ctx = await searchLog(f, { ...base, text: "step", context: 2 });
    for (const [k, m] of ctx.matches.entries()) {
      const around = [...ctx.contexts![k].before, m, ...ctx.contexts![k].after];
      assert.deepEqual(
        around.map(shown),
        around.map((l) => ref(l.line_no!)),
        `log ${t} context of ${m.line_no}`,
      );
    }
    // A tail window that starts inside the file: the lines before it are read back for their entries.
    for (const tailBytes of [50, 333, 2000]) {
      const tail = await tailLog(f, { ...base, lines: 200, tailBytes, gzipMs: 1e9 });
      const n = tail.lines.length;
      const lastNo = log.lines.length;
      const expect = Array.from(
        { length: n },
        (_, k) => ref(lastNo - n + 1 + k).replace(/^\d+/, (d) => (tail.whole_file ? d : "null")),
      );
      assert.deepEqual(
        tail.lines.map(shown),
        expect,
        `log ${t} piece ${pieceSize} tail of ${tailBytes} bytes`,
      );
      assert.equal(tail.unresolved_levels, undefined);
    }
  }
});

Deno.test("log_tail and log_search over 8 MB of lines with no level and no time: each line UNRESOLVED, and the reads back stay bounded (a tail's 1 MiB once, then none: a line right after an unresolved one is not read back again; a search's no more than the file again)", async () => {
  const r = rng(9);
  const out: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    out.push(
      `svc event kind ${Array.from({ length: 100 }, () => "abcdefghij"[Math.floor(r() * 10)]).join(" ")}`,
    );
  }
  const bytes = enc.encode(out.join("\n") + "\n");
  Deno.writeFileSync(`${dir}/plain.log`, bytes);
  using f = await openLog(roots, "plain.log");
  const base = { ...limits, pieceSize: 65536, redact: false, maxLine: 2000 };
  const tail = await tailLog(f, { ...base, lines: 200, tailBytes: 262144, gzipMs: 1e9 });
  assert.equal(tail.read_lines, Math.floor((262144 - 1) / (out[0].length + 1)));
  assert.equal(tail.unresolved_levels, tail.read_lines);
  assert.ok(tail.lines.every((l) => l.level === "UNKNOWN" && !l.continuation));
  // The window, the byte before it, and one read back of at most 1 MiB (in doubling reads: 2 MiB).
  assert.ok(tail.scanned_bytes <= 262144 + 2 * (1 << 20), `${tail.scanned_bytes} bytes read`);
  const search = await searchLog(f, { ...base, text: "svc", limit: 100000 });
  assert.equal(search.matches.length, 40_000);
  assert.ok(search.scanned_bytes <= bytes.length + 2 * (1 << 20), `${search.scanned_bytes} bytes read`);
  // Read from the file's start, every line after the one before: each is known to be an entry, UNKNOWN.
  assert.equal(search.unresolved_levels, undefined);
  assert.ok(search.matches.every((l) => l.level === "UNKNOWN" && !l.continuation));
  // Every other line: each read back to the line before it (known unknowable), never 1 MiB again.
  const odd = await searchLog(f, { ...base, text: "svc", regex: true, limit: 100000 });
  assert.equal(odd.matches.length, 40_000);
  const some = await searchLog(f, { ...base, text: "kind a ", limit: 100000 });
  const want = out.filter((l) => l.includes("kind a ")).length;
  assert.ok(want > 1000 && want < 20_000, `${want}`);
  assert.equal(some.matches.length, want);
  assert.ok(some.scanned_bytes <= 2 * bytes.length, `${some.scanned_bytes} bytes read`);
});
