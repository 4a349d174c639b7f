import assert from "node:assert/strict";
import { CHEAP_LINES, CHECK_LINES, CUT_MARK, mineTemplates, type MiningSink } from "./mine_templates.ts";
import { openLog } from "../source/local/log_file.ts";
import { openRoots, type Root } from "../source/local/roots.ts";
import { lineClock } from "./timestamp.ts";
import { LEVELS } from "./level.ts";
import { ScanTurns } from "./next_turn.ts";
import { TemplateMiner } from "./template_miner.ts";
import type { ResumePoint } from "./readable_log.ts";

const dir = Deno.makeTempDirSync({ prefix: "logpeek-mine-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots: Root[] = openRoots([dir], "/");

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

/** A random log: timestamps, levels, long lines, invalid UTF-8, CRLF, a last line without a line feed. */
function randomLog(rnd: () => number, n: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < n; i++) {
    const lv = ["INFO", "WARN", "ERROR", "DEBUG"][Math.floor(rnd() * 4)];
    const sec = String(i % 60).padStart(2, "0");
    const head = rnd() < 0.1
      ? "  at frame"
      : `2024-05-01T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${sec}Z ${lv}`;
    const len = rnd() < 0.05 ? 300 + Math.floor(rnd() * 400) : Math.floor(rnd() * 30);
    let body = "";
    for (let k = 0; k < len; k++) body += String.fromCharCode(97 + Math.floor(rnd() * 26));
    parts.push(enc.encode(`${head} job ${i} ${body}`));
    if (rnd() < 0.03) parts.push(new Uint8Array([0xff, 0xfe]));
    if (i < n - 1 || rnd() < 0.5) parts.push(enc.encode(rnd() < 0.3 ? "\r\n" : "\n"));
  }
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), at += p.length;
  return out;
}

/** The lines as an independent split shows them: LF, a CR before it dropped, U+FFFD, cut at `max` characters. */
function expected(bytes: Uint8Array, max: number): { text: string; cut: boolean }[] {
  const text = new TextDecoder().decode(bytes);
  const ls = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (ls.at(-1) === "") ls.pop();
  return ls.map((l) => {
    const cps = [...l];
    return cps.length > max ? { text: cps.slice(0, max).join(""), cut: true } : { text: l, cut: false };
  });
}

/** A sink that records what it is given. */
function recorder(): MiningSink & {
  got: { text: string; no: number; level: number; time: number; cut: boolean }[];
} {
  const got: { text: string; no: number; level: number; time: number; cut: boolean }[] = [];
  return {
    got,
    line: (text, no, level, time, cut) => void got.push({ text, no, level, time, cut }),
    checkpoint: () => {},
    rollback: () => {},
  };
}

const base = { maxLine: 200, redact: false, deadline: Infinity };

Deno.test("mineTemplates hands on every line as shown, at every piece size (tiny ones too)", async () => {
  const rnd = rng(13);
  for (let t = 0; t < 12; t++) {
    const bytes = randomLog(rnd, 1 + Math.floor(rnd() * 120));
    Deno.writeFileSync(`${dir}/m.log`, bytes);
    const want = expected(bytes, base.maxLine);
    for (const pieceSize of [1, 7, 64, 1000, 65536]) {
      using log = await openLog(roots, "m.log");
      const sink = recorder();
      const page = await mineTemplates(log, sink, { ...base, pieceSize });
      assert.equal(page.complete, true);
      assert.equal(page.total_lines, want.length, `case ${t} piece ${pieceSize}`);
      assert.equal(page.last_line, want.length);
      sink.got.forEach((g, i) => {
        assert.equal(g.no, i + 1);
        assert.equal(g.cut, want[i].cut, `case ${t} piece ${pieceSize} line ${i + 1} cut`);
        assert.equal(g.text, want[i].cut ? want[i].text + CUT_MARK : want[i].text, `line ${i + 1}`);
      });
    }
  }
});

Deno.test("mineTemplates resumes at a line start and inside a line: the pages join to the whole", async () => {
  const rnd = rng(7);
  const bytes = randomLog(rnd, 80);
  Deno.writeFileSync(`${dir}/r.log`, bytes);
  const want = expected(bytes, base.maxLine);
  // Line starts by an independent scan for LF.
  const starts = [0];
  bytes.forEach((b, i) => {
    if (b === 10 && i + 1 < bytes.length) starts.push(i + 1);
  });
  for (const k of [1, 17, 40, 79]) {
    for (const inside of [0, 3]) {
      const ls = starts[k];
      const off = Math.min(ls + inside, (starts[k + 1] ?? bytes.length) - 1);
      for (const pieceSize of [5, 4096]) {
        using log = await openLog(roots, "r.log");
        const sink = recorder();
        await mineTemplates(log, sink, {
          ...base,
          pieceSize,
          resume: { off, ls, line: k, pending: false, skip: 0 },
        });
        assert.deepEqual(
          sink.got.map((g) => g.text),
          want.slice(k).map((w) => (w.cut ? w.text + CUT_MARK : w.text)),
          `resume at line ${k + 1} + ${off - ls} bytes, piece ${pieceSize}`,
        );
        assert.equal(sink.got[0].no, k + 1);
      }
    }
  }
});

Deno.test("mineTemplates: a level keeps only its lines; a window only the lines whose time is in it", async () => {
  const lines = [
    "2024-05-01T10:00:00Z INFO a 1",
    "2024-05-01T10:00:05Z ERROR b 2",
    "  at stack frame",
    "2024-05-01T10:00:10Z ERROR c 3",
    "2024-05-01T10:00:15Z WARN d 4",
  ];
  Deno.writeFileSync(`${dir}/w.log`, new TextEncoder().encode(lines.join("\n") + "\n"));
  {
    using log = await openLog(roots, "w.log");
    const sink = recorder();
    await mineTemplates(log, sink, { ...base, pieceSize: 3, level: LEVELS.indexOf("ERROR") });
    // The stack frame is its error's (issue #23: as log_levels counts it).
    assert.deepEqual(sink.got.map((g) => g.no), [2, 3, 4]);
  }
  {
    using log = await openLog(roots, "w.log");
    const sink = recorder();
    const clock = lineClock({ zone: "UTC", modifiedMs: null });
    const page = await mineTemplates(log, sink, {
      ...base,
      pieceSize: 3,
      window: {
        span: { since: Date.parse("2024-05-01T10:00:05Z"), until: Date.parse("2024-05-01T10:00:15Z") },
        timeOf: (b, s, e) => clock.timeOf(b, s, e),
      },
    });
    // The stack line takes the time of the line before it (10:00:05): in the window.
    assert.deepEqual(sink.got.map((g) => g.no), [2, 3, 4]);
    assert.equal(page.total_lines, 3);
    assert.equal(page.time?.untimed, 1);
    assert.deepEqual(sink.got.map((g) => new Date(g.time).toISOString()), [
      "2024-05-01T10:00:05.000Z",
      "2024-05-01T10:00:05.000Z",
      "2024-05-01T10:00:10.000Z",
    ]);
  }
});

Deno.test("mineTemplates masks secrets before mining, and stops when asked", async () => {
  Deno.writeFileSync(
    `${dir}/s.log`,
    new TextEncoder().encode("login user=bob password=hunter2 ok\nplain line\nthird line\n"),
  );
  using log = await openLog(roots, "s.log");
  const sink = recorder();
  let n = 0;
  const page = await mineTemplates(log, sink, { ...base, redact: true, pieceSize: 8, stop: () => ++n >= 2 });
  assert.equal(sink.got[0].text, "login user=bob password=*** ok");
  assert.equal(sink.got.length, 2);
  assert.equal(page.complete, false);
  assert.equal(page.stop_reason, "limit");
});

Deno.test("mineTemplates past its deadline stops inside a piece every CHECK_LINES lines; the pages join to the whole", async () => {
  const rnd = rng(99);
  const bytes = randomLog(rnd, 301);
  Deno.writeFileSync(`${dir}/d.log`, bytes);
  const want = expected(bytes, base.maxLine).map((w) => (w.cut ? w.text + CUT_MARK : w.text));
  for (const pieceSize of [64, 1 << 20]) {
    const got: string[] = [];
    let resume: ResumePoint | undefined;
    let pages = 0;
    for (;;) {
      using log = await openLog(roots, "d.log");
      const sink = recorder();
      // A clock past the deadline (the scanner's own reads still start): each page mines CHECK_LINES lines,
      // then stops at the next line.
      const page = await mineTemplates(log, sink, {
        ...base,
        pieceSize,
        deadline: 1e15,
        clock: () => Infinity,
        resume,
      });
      pages++;
      got.push(...sink.got.map((g) => g.text));
      if (page.complete) break;
      assert.equal(page.stop_reason, "time_budget");
      assert.equal(sink.got.length, CHECK_LINES, `piece ${pieceSize}, page ${pages}`);
      assert.equal(page.last_line, sink.got.at(-1)!.no);
      resume = page.next!;
    }
    assert.equal(pages, Math.ceil(want.length / CHECK_LINES));
    assert.deepEqual(got, want, `piece ${pieceSize}`);
  }
});

Deno.test("mineTemplates: lines shown as read go to lineAsRead, as bytes; past the deadline a page takes CHECK_LINES × CHEAP_LINES of them", async () => {
  // Whole ASCII lines without secrets (shown as read), and some that are not: a secret, a non-ASCII word.
  const ls = Array.from(
    { length: 300 },
    (_, i) =>
      i % 50 === 7
        ? `2024-05-01T10:00:00Z INFO login password=hunter${i}`
        : i % 50 === 9
        ? `2024-05-01T10:00:00Z INFO café ${i}`
        : i % 50 === 11
        ? `2024-05-01T10:00:00Z INFO Failed password for root from 10.0.0.${i % 250} port ${i}`
        : `2024-05-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO job ${i} done`,
  );
  Deno.writeFileSync(`${dir}/r.log`, new TextEncoder().encode(ls.join("\n") + "\n"));
  for (const [taken, redact] of [[true, true], [false, true], [true, false]]) {
    const got: { text: string; asRead: boolean }[] = [];
    const sink: MiningSink = {
      line: (text) => void got.push({ text, asRead: false }),
      lineAsRead: (b, s, e) => {
        if (taken) got.push({ text: new TextDecoder().decode(b.subarray(s, e)), asRead: true });
        return taken;
      },
      checkpoint: () => {},
      rollback: () => {},
    };
    let resume: ResumePoint | undefined;
    const sizes: number[] = [];
    for (;;) {
      using log = await openLog(roots, "r.log");
      const before = got.length;
      const page = await mineTemplates(log, sink, {
        ...base,
        pieceSize: 1 << 20,
        redact,
        deadline: 1e15,
        clock: () => Infinity,
        resume,
      });
      sizes.push(got.length - before);
      if (page.complete) break;
      resume = page.next!;
    }
    assert.equal(got.length, ls.length);
    for (let i = 0; i < ls.length; i++) {
      // Only the lines shown as read come as bytes: with masking off, a secret's line too, as it is; a
      // line the byte check cannot clear (`password`) but in which nothing is masked, after redaction.
      assert.equal(got[i].asRead, taken && (i % 50 !== 7 || !redact) && i % 50 !== 9, `line ${i + 1}`);
      if (i % 50 === 7 && redact) {
        assert.ok(!got[i].text.includes("hunter") && got[i].text.startsWith(ls[i].slice(0, 36)), got[i].text);
      } else assert.equal(got[i].text, ls[i]);
    }
    // Each page: CHECK_LINES × CHEAP_LINES lines taken as bytes (fewer when one goes as text), or
    // CHECK_LINES lines as text.
    const most = taken ? CHECK_LINES * CHEAP_LINES : CHECK_LINES;
    assert.ok(sizes.slice(0, -1).every((n) => n <= most && n >= CHECK_LINES), sizes.join());
    assert.ok(sizes.filter((n) => n === most).length >= (taken ? 2 : 100), sizes.join());
    if (taken) assert.ok(sizes.length < ls.length / (4 * CHECK_LINES), sizes.join());
    else assert.equal(sizes.length, ls.length / CHECK_LINES);
  }
});

Deno.test("mineTemplates: the page's pauses and the scanner's turns are one ScanTurns (one armed timer)", async () => {
  // Two ScanTurns fired each other's armed timers, and each then waited ~2 ms for a fresh one (issue #26
  // item 4): every turn of a page must be taken by one of them.
  const rnd = rng(5);
  const bytes = randomLog(rnd, 60_000);
  Deno.writeFileSync(`${dir}/t.log`, bytes);
  const next = ScanTurns.prototype.next;
  const used = new Set<ScanTurns>();
  let turns = 0;
  ScanTurns.prototype.next = function (this: ScanTurns) {
    used.add(this), turns++;
    return next.call(this);
  };
  try {
    using log = await openLog(roots, "t.log");
    const m = new TemplateMiner();
    const page = await mineTemplates(log, {
      line: (text, no) => void m.add(text, no),
      checkpoint: () => {},
      rollback: () => {},
    }, { ...base, pieceSize: 65536, redact: true });
    assert.equal(page.complete, true);
    assert.equal(page.total_lines, expected(bytes, base.maxLine).length);
  } finally {
    ScanTurns.prototype.next = next;
  }
  // 60,000 lines take far more than the 20 ms between turns.
  assert.ok(turns >= 1, `${turns} turns`);
  assert.equal(used.size, 1, `${turns} turns by ${used.size} ScanTurns`);
});
