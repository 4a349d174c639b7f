import assert from "node:assert/strict";
import { type ByteSource, scan, type ScanOptions } from "./scanner.ts";

/** An in-memory source that hands out at most `maxRead` bytes a call (short reads, as files may give). */
export function memorySource(bytes: Uint8Array, maxRead = Infinity): ByteSource & { reads: number[] } {
  let pos = 0;
  const reads: number[] = [];
  return {
    reads,
    readSync(into: Uint8Array) {
      reads.push(into.length);
      const n = Math.min(into.length, bytes.length - pos, maxRead);
      into.set(bytes.subarray(pos, pos + n));
      pos += n;
      return n > 0 ? n : null;
    },
    atEnd: () => pos >= bytes.length,
  };
}

interface Seen {
  no: number;
  bytes: number[];
  cut: boolean;
}

async function collect(bytes: Uint8Array, opts: ScanOptions, limit = Infinity, maxRead = Infinity) {
  const seen: Seen[] = [];
  const r = await scan(memorySource(bytes, maxRead), {
    line(buf, s, e, no, cut) {
      seen.push({ no, bytes: Array.from(buf.subarray(s, e)), cut });
      return seen.length < limit;
    },
  }, opts);
  return { ...r, seen };
}

/** The reference: whole-file split, as CONVENTIONS.md defines lines. */
function refLines(bytes: Uint8Array): number[][] {
  const lines: number[][] = [];
  let cur: number[] = [];
  for (const b of bytes) {
    if (b === 10) {
      if (cur.length && cur[cur.length - 1] === 13) cur.pop();
      lines.push(cur);
      cur = [];
    } else cur.push(b);
  }
  if (cur.length) lines.push(cur);
  return lines;
}

function contains(h: number[], n: Uint8Array): boolean {
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let k = 0; k < n.length; k++) if (h[i + k] !== n[k]) continue outer;
    return true;
  }
  return false;
}

function randomLog(rnd: () => number): Uint8Array {
  const out: number[] = [];
  const lines = Math.floor(rnd() * 40);
  for (let i = 0; i < lines; i++) {
    const kind = rnd();
    const len = kind < 0.1 ? 0 : kind < 0.2 ? 150 + Math.floor(rnd() * 300) : Math.floor(rnd() * 30);
    for (let k = 0; k < len; k++) {
      const r = rnd();
      out.push(
        r < 0.02 ? 0xff : r < 0.05 ? 13 : r < 0.3 ? 65 + Math.floor(rnd() * 3) : 97 + Math.floor(rnd() * 26),
      );
    }
    if (i < lines - 1 || rnd() < 0.5) out.push(...(rnd() < 0.3 ? [13, 10] : [10]));
  }
  return new Uint8Array(out);
}

const PIECES = [1, 2, 3, 5, 16, 64, 100, 65536];

Deno.test("scan passes every line, whole or cut, at every piece size", async () => {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let t = 0; t < 150; t++) {
    const bytes = randomLog(rnd);
    const ref = refLines(bytes);
    for (const pieceSize of PIECES) {
      const headBytes = 8;
      const r = await collect(bytes, { pieceSize, headBytes }, Infinity, 1 + Math.floor(rnd() * 70));
      assert.equal(r.lines, ref.length, `case ${t} piece ${pieceSize}: line count`);
      assert.equal(r.stop, null);
      assert.equal(r.bytesRead, bytes.length);
      for (let i = 0; i < ref.length; i++) {
        const raw = refRaw(bytes, i);
        const cut = raw >= pieceSize && raw > headBytes;
        assert.equal(r.seen[i].no, i + 1);
        assert.equal(r.seen[i].cut, cut, `case ${t} piece ${pieceSize} line ${i + 1}: cut`);
        const want = cut ? rawLine(bytes, i).slice(0, headBytes) : ref[i];
        assert.deepEqual(r.seen[i].bytes, want, `case ${t} piece ${pieceSize} line ${i + 1}`);
      }
    }
  }
});

/** Bytes of line i before its `\n` (a `\r` included). */
function rawLine(bytes: Uint8Array, i: number): number[] {
  let start = 0;
  for (let k = 0; k < i; k++) start = bytes.indexOf(10, start) + 1;
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  return Array.from(bytes.subarray(start, end));
}
function refRaw(bytes: Uint8Array, i: number): number {
  return rawLine(bytes, i).length;
}

Deno.test("scan with a needle finds each holding line once, with honest numbers, at every piece size", async () => {
  let seed = 9;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let t = 0; t < 150; t++) {
    const bytes = randomLog(rnd);
    const ref = refLines(bytes);
    const needle = new Uint8Array(
      Array.from(
        { length: 1 + Math.floor(rnd() * 3) },
        () => (rnd() < 0.8 ? 65 + Math.floor(rnd() * 3) : 0xff),
      ),
    );
    const want = ref.map((l, i) => [i + 1, l] as const).filter(([, l]) => contains(l, needle));
    for (const pieceSize of PIECES) {
      const r = await collect(bytes, { pieceSize, headBytes: 8, needle });
      assert.equal(r.lines, ref.length, `case ${t} piece ${pieceSize}: lines`);
      assert.deepEqual(r.seen.map((s) => s.no), want.map(([no]) => no), `case ${t} piece ${pieceSize}`);
    }
  }
});

Deno.test("scan finds a match that straddles two reads inside a line longer than the buffer", async () => {
  const line = new Uint8Array(3 * 1024 * 1024).fill(97);
  const needle = new TextEncoder().encode("NEEDLE");
  line.set(needle, 65536 - 3); // three bytes in the first piece, three in the second
  const bytes = new Uint8Array([...new TextEncoder().encode("first\n"), ...line, 10, 98, 10]);
  for (const pieceSize of [7, 1000, 65536]) {
    const r = await collect(bytes, { pieceSize, needle, headBytes: 16 });
    assert.deepEqual(r.seen.map((s) => [s.no, s.cut]), [[2, true]]);
    assert.deepEqual(r.seen[0].bytes, Array(16).fill(97));
    assert.equal(r.lines, 3);
  }
});

Deno.test("scan stops on the byte budget, except exactly at the end", async () => {
  const bytes = new TextEncoder().encode("one\ntwo\nthree\n");
  const src = memorySource(bytes);
  const seen: number[] = [];
  const r = await scan(src, { line: (_b, _s, _e, no) => (seen.push(no), true) }, {
    pieceSize: 4,
    maxBytes: 5,
  });
  assert.deepEqual({ stop: r.stop, lines: r.lines, bytesRead: r.bytesRead }, {
    stop: "size_budget",
    lines: 1,
    bytesRead: 5,
  });
  assert.ok(src.reads.every((n) => n <= 4), `reads ${src.reads}`);
  assert.equal(src.reads.at(-1), 1, "the last read asks only for what the budget has left");
  const exact = await collect(bytes, { pieceSize: 4, maxBytes: bytes.length });
  assert.deepEqual([exact.stop, exact.lines], [null, 3]);
});

Deno.test("scan stops on the time budget and still calls an exhausted budget on an empty source complete", async () => {
  const bytes = new TextEncoder().encode("a\nb\n");
  const r = await collect(bytes, { deadline: performance.now() - 1 });
  assert.deepEqual([r.stop, r.lines, r.bytesRead], ["time_budget", 0, 0]);
  const empty = await collect(new Uint8Array(), { deadline: performance.now() - 1 });
  assert.deepEqual([empty.stop, empty.lines], [null, 0]);
});

Deno.test("scan drops a leading fragment only when told the first line is not whole", async () => {
  const bytes = new TextEncoder().encode("tail of a line\nnext\nlast");
  for (const pieceSize of [1, 3, 65536]) {
    const dropped = await collect(bytes, { pieceSize, firstLineWhole: false });
    assert.deepEqual(dropped.seen.map((s) => String.fromCharCode(...s.bytes)), ["next", "last"]);
    assert.equal(dropped.droppedPartial, true);
    const kept = await collect(bytes, { pieceSize, firstLineWhole: true });
    assert.equal(kept.seen.length, 3);
    assert.equal(kept.droppedPartial, false);
  }
});

Deno.test("scan reports limit when the sink stops it", async () => {
  const bytes = new TextEncoder().encode("x1\nx2\nx3\n");
  const r = await collect(bytes, { pieceSize: 2, needle: new TextEncoder().encode("x") }, 2);
  assert.deepEqual([r.stop, r.lines, r.seen.length], ["limit", 2, 2]);
});

Deno.test("a budget that stops inside a matching line ends the page at its start when a line came before it; else, or when the line outgrew the buffer, the match is reported, cut", async () => {
  const bytes = new TextEncoder().encode("first\nsecond has the NEEDLE and goes on and on\nthird NEEDLE\n");
  const needle = new TextEncoder().encode("NEEDLE");
  for (const pieceSize of [1, 4, 16, 64, 65536]) {
    const r = await collect(bytes, { pieceSize, maxBytes: 30, needle });
    if (pieceSize + needle.length - 1 < 42) {
      // The 42-byte line outgrew the buffer: its start is not in it, so it is reported as its head, cut.
      assert.deepEqual([r.stop, r.lines, r.pending], ["size_budget", 1, true]);
      assert.deepEqual(r.seen.map((s) => [s.no, s.cut]), [[2, true]]);
    } else {
      // The page read "first\n": it ends at byte 6, where the next page reads the match whole.
      assert.deepEqual([r.stop, r.lines, r.seen.length, r.bytesRead, r.resumeAt, r.pending], [
        "size_budget",
        1,
        0,
        6,
        6,
        false,
      ]);
    }
    // The match's line is the page's first: reported cut, or no page would ever show it.
    const alone = await collect(bytes.subarray(6), { pieceSize, maxBytes: 24, needle });
    assert.deepEqual([alone.stop, alone.lines], ["size_budget", 0]);
    assert.deepEqual(alone.seen.map((s) => [s.no, s.cut]), [[1, true]]);
    assert.ok(String.fromCharCode(...alone.seen[0].bytes).startsWith("second has th"));
  }
});

Deno.test("ignoreCase: a K (U+212A) before the needle on one line never hides the needle's own match, even in a long line", async () => {
  const enc = new TextEncoder();
  // The line outgrows the 64-byte buffer after both the K and "DISK" were seen; its head is 8 bytes.
  const bytes = enc.encode(`a\nx\u212a${"-".repeat(20)}DISK${"-".repeat(200)}\nb \u212a\nc dis\u212a\n`);
  const verified: string[] = [];
  const r = await collect(bytes, {
    pieceSize: 64,
    headBytes: 8,
    needle: enc.encode("disk"),
    ignoreCase: true,
    // A verifier that finds nothing: only lines holding the needle's own bytes may reach the sink.
    verify: (buf, s, e) => (verified.push(new TextDecoder().decode(buf.subarray(s, e))), false),
  });
  assert.deepEqual(r.seen.map((x) => [x.no, x.cut]), [[2, true]]);
  // "disk" is looked for by its head "di" (the bytes before its first k or s): a line where the needle
  // stands with K is verified; "b K" cannot hold it in any case, and "DISK" is the needle's own bytes.
  assert.deepEqual(verified, ["c dis\u212a"], "only the line where disk may stand with a K was verified");
  assert.equal(r.lines, 4);
});

Deno.test("levelCounts counts every line's level, whole or cut, as the lines split whole would, at every piece size", async () => {
  const { LevelTally } = await import("./level.ts");
  let seed = 9;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const parts = [
    "2024-05-01 10:00:00 ",
    "Dec 10 09:48:23 ",
    "host ",
    "ERROR ",
    "  at x.Y(Y.java:1)", // continuation lines: their level is their entry's, across pieces too
    "Stack trace:",
    "SEVERE: ",
    "warn",
    "[info] ",
    "x",
    "\r",
    "{",
    "a=b ",
  ];
  const enc = new TextEncoder();
  for (let t = 0; t < 60; t++) {
    const lines: string[] = [];
    for (let i = Math.floor(rnd() * 30); i > 0; i--) {
      let l = "";
      for (let k = Math.floor(rnd() * 6); k > 0; k--) l += parts[Math.floor(rnd() * parts.length)];
      if (rnd() < 0.1) l += "y".repeat(200); // longer than the small pieces
      lines.push(l);
    }
    const text = lines.join(rnd() < 0.3 ? "\r\n" : "\n") + (rnd() < 0.5 ? "\n" : "");
    const bytes = enc.encode(text);
    for (const firstLineWhole of [true, false]) {
      for (const pieceSize of PIECES) {
        const headBytes = 16;
        // The reference: the file split whole (refLines); a line as long as a piece is seen by its head.
        const want = new LevelTally();
        const ref = refLines(bytes);
        for (let i = firstLineWhole || bytes.length === 0 ? 0 : 1; i < ref.length; i++) {
          const raw = rawLine(bytes, i);
          const cut = raw.length >= pieceSize && raw.length > headBytes;
          const line = new Uint8Array(cut ? raw.slice(0, headBytes) : ref[i]);
          want.add(line, 0, line.length);
        }
        const tally = new LevelTally();
        let sinkCalls = 0;
        const r = await scan(memorySource(bytes, 1 + Math.floor(rnd() * 70)), {
          line: () => (sinkCalls++, true),
        }, { pieceSize, headBytes, levelCounts: tally, firstLineWhole });
        const where = `case ${t} piece ${pieceSize} first whole ${firstLineWhole}: ${JSON.stringify(text)}`;
        assert.deepEqual(Array.from(tally.counts), Array.from(want.counts), where);
        assert.equal(r.lines, tally.counts.reduce((a, b) => a + b, 0), where);
        assert.equal(sinkCalls, 0);
      }
    }
  }
});

Deno.test("levelCounts is refused with a needle", async () => {
  await assert.rejects(
    scan(memorySource(new Uint8Array()), { line: () => true }, {
      needle: new Uint8Array([65]),
      levelCounts: new (await import("./level.ts")).LevelTally(),
    }),
    TypeError,
  );
});

/** Waits `ms` without letting the event loop turn (a slow disk, or a sink's costly line). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

/** 10,000 numbered lines (every third holding `x`), 130 KB: one piece. */
const STEADY = new TextEncoder().encode(
  Array.from({ length: 10000 }, (_, i) => `line ${i + 1}${i % 3 ? "" : " x"}`).join("\n") + "\n",
);

Deno.test("a deadline that passes inside a piece stops the scan between two lines, as though the piece ended there; pages from there give every line once (issue #22)", async () => {
  const want = refLines(STEADY).map((l) => String.fromCharCode(...l));
  const needle = new TextEncoder().encode("x");
  for (const mode of ["every line", "needle", "levelCounts"] as const) {
    const got: string[] = [];
    let lines = 0;
    let from = 0;
    let pages = 0;
    let inside = 0;
    while (true) {
      assert.ok(++pages < 1000, `${mode}: pages get somewhere`);
      // The read itself outlasts the deadline: before issue #22 the whole piece was handed on anyway.
      const deadline = performance.now() + 5;
      const slow = memorySource(STEADY.subarray(from));
      const read = slow.readSync.bind(slow);
      slow.readSync = (into) => {
        while (performance.now() <= deadline) { /* a slow disk */ }
        return read(into);
      };
      const tally = mode === "levelCounts" ? new (await import("./level.ts")).LevelTally() : undefined;
      const r = await scan(slow, {
        line(buf, s, e) {
          got.push(String.fromCharCode(...buf.subarray(s, e)));
          return true;
        },
      }, {
        pieceSize: 1 << 20,
        deadline,
        lineBase: lines,
        needle: mode === "needle" ? needle : undefined,
        levelCounts: tally,
      });
      if (tally) got.push(...Array(tally.counts.reduce((a, b) => a + b, 0)).fill("counted"));
      if (r.stop === null) break;
      assert.equal(r.stop, "time_budget");
      if (r.bytesRead === 0) continue; // a loaded machine: the deadline passed before the read
      inside++;
      // Stopped at a line start: what was read is exactly the lines before it, and none was lost.
      assert.equal(r.resumeAt, r.bytesRead, `${mode}: page ${pages}`);
      assert.equal(r.pending, false);
      const upTo = new TextDecoder().decode(STEADY.subarray(0, from + r.bytesRead));
      assert.equal(
        upTo.split("\n").length - 1,
        r.lines,
        `${mode}: ${r.lines} lines in ${from + r.bytesRead} bytes`,
      );
      from += r.bytesRead;
      lines = r.lines;
    }
    console.error(`${mode}: ${pages} pages, ${inside} stopped inside the piece`);
    // One page would have read it all before (one piece); batches of 4,096 lines are counted between looks.
    assert.ok(inside >= 2, `${mode}: ${inside} pages stopped by the deadline inside the piece`);
    if (mode === "every line") assert.deepEqual(got, want);
    else if (mode === "needle") assert.deepEqual(got, want.filter((l) => l.includes("x")));
    else assert.equal(got.length, want.length);
  }
});

Deno.test("a scan lets the event loop turn every few ms inside a piece, and a cancel stops it between two lines (issue #22)", async () => {
  // 10,000 lines of 0.03 ms each, in one piece: 300 ms of sink work.
  let turns = 0;
  let stop = false;
  const ticker = (async () => {
    while (!stop) {
      await new Promise((r) => setTimeout(r, 1));
      turns++;
    }
  })();
  let handed = 0;
  const r = await scan(memorySource(STEADY), { line: () => (busy(0.03), ++handed, true) }, {
    pieceSize: 1 << 20,
  });
  stop = true;
  await ticker;
  console.error(`${turns} timer turns in ${handed} lines of 0.03 ms`);
  assert.deepEqual([r.stop, r.lines], [null, 10000]);
  // At most every 10 ms of work (YIELD_MS): ~30 turns; before issue #22, none inside the piece.
  assert.ok(turns >= 10, `${turns} turns`);
  let asked = 0;
  const c = await collect(STEADY, { pieceSize: 1 << 20, cancelled: () => ++asked > 10 });
  assert.equal(c.stop, "cancelled");
  assert.ok(c.lines > 0 && c.lines < 10000 && c.seen.length === c.lines, `${c.lines} lines`);
  assert.equal(c.bytesRead, c.resumeAt);
});
