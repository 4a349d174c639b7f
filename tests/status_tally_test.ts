/**
 * Issue #26, item 3: `log_levels`' derived counts, counted in the scanner's counting loop
 * (`http_status.ts` `StatusTally`: a `request` or `json` log's lines without a `"` passed by one native
 * search for many lines), equal the status of each line read alone (`StatusReader.statusOf` on a copy of
 * the line), at piece sizes from a few bytes (every line cut across pieces, or a long line) to 1 MiB.
 * The lines: lnav's access logs (combined format) shuffled with Loghub's lines (most without a quote) and
 * lines that hold quotes but no status, or a quote at their end.
 *
 * SKIP (ignored, the reason printed) where `../shared` is absent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedDir } from "./shared_dir.ts";
import { mulberry32, tempDir } from "./fixtures.ts";
import { detectStatus, statusLevel, StatusReader } from "../src/read/http_status.ts";
import { openRoots } from "../src/source/local/roots.ts";
import { openLogSync } from "../src/source/local/log_file.ts";
import { countLevels } from "../src/read/count_levels.ts";
import { LEVELS } from "../src/read/level.ts";

const SHARED = sharedDir("derived counts in the counting loop against each line's status");
const enc = new TextEncoder();

Deno.test(
  "derived_levels of a combined access log among other lines equal each line's status read alone, at every piece size",
  {
    ignore: SHARED === null,
  },
  async () => {
    const read = (p: string) =>
      Deno.readTextFileSync(join(SHARED!, p)).split("\n").filter((l) => l.trim() !== "");
    const access = ["logfile_access_log.0", "logfile_access_log.1", "logfile_shop_access_log.0"]
      .flatMap((f) => read(join("corpus/lnav/logs", f)));
    const other = ["Hadoop_2k.log", "OpenSSH_2k.log", "Apache_2k.log"].flatMap((f) =>
      read(join("corpus/loghub", f))
    );
    const odd = [
      'x "quoted" 200',
      'a "b" c "d" 404 x',
      'no status "',
      '"',
      '"" 500',
      'q "\\"" 301 ',
      'u "x" 99',
    ];
    const lines = [...access, ...other, ...odd];
    const rand = mulberry32(261);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    lines.unshift(...access.slice(0, 30)); // the head the layout is learnt from
    const text = lines.join("\n") + "\n";
    const layout = detectStatus(enc.encode(text).subarray(0, 65536));
    assert.deepEqual(layout, { kind: "request" });
    const want = Object.fromEntries(LEVELS.map((l) => [l, 0]));
    for (const l of lines) {
      const b = enc.encode(l);
      const s = new StatusReader(layout!).statusOf(b, 0, b.length);
      want[LEVELS[s > 0 ? statusLevel(s) : 7]]++;
    }
    assert.ok(want.INFO > 500 && want.WARN > 10 && want.UNKNOWN > 5000, JSON.stringify(want));
    const dir = tempDir("logpeek-status-tally-");
    Deno.writeTextFileSync(join(dir, "mix.log"), text);
    const roots = openRoots([dir], "/");
    for (const pieceSize of [5, 64, 333, 4096, 65536, 1 << 20]) {
      using log = openLogSync(roots, "mix.log");
      const r = await countLevels(log, { levelsMs: 600000, pieceSize });
      assert.equal(r.complete, true);
      assert.deepEqual(r.derived?.counts, want, `piece ${pieceSize}`);
    }
  },
);
