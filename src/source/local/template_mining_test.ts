/**
 * `MiningRun.sink`'s ways in (issue #26 item 4): a line shown as read given as its bytes
 * (`lineAsRead`, counted without being decoded when the miner knows its shape), or a line not yet checked
 * for secrets that its shape shows shown as read (`lineByShape`), must leave the run exactly as its text
 * given to `line` does: the same clusters, counts, levels, times, examples, baseline and
 * variants, and the same lines told to `onLine`. Over the Loghub and lnav corpora (SKIP when
 * `../shared` is absent), with lines holding secrets, non-ASCII text and long lines mixed in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type MinedLine, MiningRun } from "./template_mining.ts";
import { openLogSync } from "./log_file.ts";
import { openRoots } from "./roots.ts";
import { mineTemplates, type MiningSink } from "../../read/mine_templates.ts";
import { headerOfHead } from "../../read/template_miner.ts";
import { lineClock } from "../../read/timestamp.ts";
import { sharedDir } from "../../../tests/shared_dir.ts";

const SHARED = sharedDir("MiningRun.sink's byte path against its text path on the Loghub and lnav corpora");

/** The corpora's logs joined into one log's bytes, with secrets, non-ASCII and long lines every 97 lines. */
function corporaLog(dir: string): Uint8Array {
  const extra = [
    "2024-05-01 10:00:00 INFO login user=bob password=hunter2 ok 17",
    "2024-05-01 10:00:01 WARN Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123 for 12",
    "2024-05-01 10:00:02 INFO café ouvert à 9 h 30",
    `2024-05-01 10:00:03 DEBUG ${"x1 ".repeat(700)}`,
    "2024-05-01 10:00:04 INFO token=ghp_0123456789abcdefghijABCDEFGHIJ012345 seen 3",
    // One shape (digits aside): clear, then a Google token (`ya29.`), which lineByShape must not take.
    "2024-05-01 10:00:05 INFO got ya11.abcdefghijklmnopqrstuvwxyz0123 from 7",
    "2024-05-01 10:00:05 INFO got ya29.abcdefghijklmnopqrstuvwxyz0123 from 7",
    // A key body's shape at the end (masked), and a number that is one only when long (never masked).
    `2024-05-01 10:00:06 INFO blob ${"aB9".repeat(17)}1234567`,
    `2024-05-01 10:00:06 INFO id ${"7".repeat(50)}`,
    `2024-05-01 10:00:06 INFO id ${"7".repeat(60)}`,
  ];
  const out: string[] = [];
  let k = 0;
  for (const sub of ["loghub", "lnav/logs"]) {
    const d = join(dir, "corpus", sub);
    const names = [...Deno.readDirSync(d)].filter((e) => e.isFile && !/(\.csv|\.md|LICENSE)$/.test(e.name))
      .map((e) => e.name).sort();
    for (const n of names) {
      for (const l of new TextDecoder().decode(Deno.readFileSync(join(d, n))).split("\n")) {
        out.push(l);
        if (++k % 97 === 0) out.push(extra[(k / 97) % extra.length]);
      }
    }
  }
  return new TextEncoder().encode(out.join("\n") + "\n");
}

/**
 * The baseline's log: the window's lines, those of six tokens or more with their last token `zzz0`–`zzz2`
 * (they join the window's clusters and widen them, and no longer match the window's texts: variants).
 */
function changed(bytes: Uint8Array): Uint8Array {
  const ls = new TextDecoder().decode(bytes).split("\n");
  return new TextEncoder().encode(
    ls.map((l, i) => (l.split(" ").length >= 6 ? l.replace(/\S+$/, `zzz${i % 3}`) : l)).join("\n"),
  );
}

/**
 * The run after mining `window.log`, then `baseline.log` as its baseline, through the sink as made
 * (`full`), without `lineByShape` (`asRead`) or without `lineAsRead` too (`text`), with an `onLine` or
 * without; and how many lines `lineByShape` took.
 */
async function mined(
  dir: string,
  ways: "text" | "asRead" | "full",
  tell: boolean,
): Promise<{ run: MiningRun; told: MinedLine[]; byShape: number }> {
  let byShape = 0;
  const roots = openRoots([dir], "/");
  const run = new MiningRun(5000);
  const told: MinedLine[] = [];
  for (const [stats, file] of [[run.window, "window.log"], [run.baseline, "baseline.log"]] as const) {
    using log = openLogSync(roots, file);
    const head = Deno.readFileSync(join(dir, file)).subarray(0, 65536);
    const full = run.sink(stats, log.name, tell ? (l) => told.push(l) : undefined, headerOfHead(head));
    const sink: MiningSink = { line: full.line, checkpoint: full.checkpoint, rollback: full.rollback };
    if (ways !== "text") sink.lineAsRead = full.lineAsRead;
    if (ways === "full") {
      sink.lineByShape = (b, s, e, lineNo, level, time) => {
        const took = full.lineByShape!(b, s, e, lineNo, level, time);
        if (took) byShape++;
        return took;
      };
    }
    const clock = lineClock({ zone: "UTC", modifiedMs: log.modifiedMs ?? null, sample: head });
    const page = await mineTemplates(log, sink, {
      pieceSize: 65536,
      maxLine: 1000,
      redact: true,
      deadline: Infinity,
      timeOf: (b, s, e) => clock.timeOf(b, s, e),
    });
    assert.equal(page.complete, true);
    if (stats === run.window) run.endWindow();
  }
  return { run, told, byShape };
}

for (const tell of [true, false]) {
  Deno.test({
    name: `MiningRun.sink: lines taken as bytes leave the run as their text does (corpora, window and ` +
      `baseline${tell ? ", onLine" : ""})`,
    ignore: SHARED === null,
  }, async () => {
    const dir = Deno.makeTempDirSync({ prefix: "logpeek-mining-" });
    try {
      const bytes = corporaLog(SHARED!);
      Deno.writeFileSync(join(dir, "window.log"), bytes);
      Deno.writeFileSync(join(dir, "baseline.log"), changed(bytes));
      const text = await mined(dir, "text", tell), fast = await mined(dir, "full", tell);
      const asRead = await mined(dir, "asRead", tell);
      assert.equal(fast.run.save(), text.run.save());
      assert.deepEqual(fast.told, text.told);
      assert.equal(asRead.run.save(), text.run.save());
      assert.deepEqual(asRead.told, text.told);
      // Most lines are taken by their shape alone (the corpora's 16,000 lines, twice).
      assert.ok(fast.byShape > 10000 && asRead.byShape === 0, `${fast.byShape} lines taken by shape`);
      // Every line of both logs (wc -l of the bytes) counted; variants among the baseline's; secrets masked.
      const lines = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
      const r = fast.run;
      assert.equal(r.window.lines, lines);
      assert.equal(r.baseline.lines + r.variants.lines, lines);
      assert.ok(r.variants.lines > 1000, `${r.variants.lines} variant lines`);
      const saved = r.save();
      assert.ok(!saved.includes("hunter2") && !saved.includes("ghp_0123"), "secrets masked");
      if (tell) {
        const google = fast.told.filter((l) => l.text.includes("got ya29."));
        assert.ok(google.length > 10 && google.every((l) => l.text.includes("ya29.***") && l.masked === 1));
        const blobs = fast.told.filter((l) => l.text.includes(" blob "));
        assert.ok(blobs.length > 10 && blobs.every((l) => l.text.endsWith(" blob ***") && l.masked === 1));
        assert.equal(fast.told.length, 2 * lines);
        assert.ok(fast.told.some((l) => l.masked > 0) && fast.told.some((l) => l.text.includes("café")));
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
}
