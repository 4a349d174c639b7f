/**
 * `spill` with items made on demand (issue #22) gives exactly what it gives for the same items in an
 * array: text, shown count, summary, and the artifact's lines; and makes each item at most three times.
 */
import assert from "node:assert/strict";
import { type ItemList, spill } from "./spill.ts";
import type { ToolContext } from "./deps.ts";
import { ArtifactStore } from "../state/artifacts.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";
import type { Level } from "../read/level.ts";

function context(inlineChars: number, withStore: boolean): ToolContext {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-spill-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return {
    backend: {} as ToolContext["backend"],
    limits: { ...DEFAULT_LIMITS, inlineChars },
    stderr: () => {},
    artifacts: withStore ? new ArtifactStore(dir, 60_000, 1 << 30, () => 1_000_000) : null,
    artifactsOff: withStore ? null : "no state directory",
    redact: true,
    cursorKey: new Uint8Array(32),
  };
}

/** The answer without the artifact id (random), and the artifact's lines. */
async function outcome(
  ctx: ToolContext,
  items: readonly string[] | ItemList,
  levels: Level[],
  newest: boolean,
) {
  const out = spill(ctx, "log_search", "header line\nsecond header line", items, levels, newest);
  const id = out.artifact?.artifact_id;
  const lines = id ? (await ctx.artifacts!.read(id, 0, 100_000)).lines : null;
  return {
    ...out,
    text: id ? out.text.replaceAll(id, "ID") : out.text,
    artifact: out.artifact && { ...out.artifact, artifact_id: "ID" },
    lines,
  };
}

Deno.test("spill: an ItemList gives the array's answer, spilled or not, newest or first, with or without a store", async () => {
  const levels: Level[] = ["INFO", "ERROR", "WARN"];
  for (const n of [0, 1, 3, 40, 2000]) {
    const items = Array.from(
      { length: n },
      (_, i) => `${i + 1} ${levels[i % 3]} ${"é".repeat(i % 97)} line ${i}`,
    );
    const lv = items.map((_, i) => levels[i % 3]);
    for (const inline of [500, 8000, 1_000_000]) {
      for (const newest of [false, true]) {
        for (const store of [true, false]) {
          if (n === 0 && inline === 500) continue; // a header longer than the limit with no item: not a case
          let made = 0;
          const list: ItemList = { length: n, item: (i) => (made++, items[i]) };
          const want = await outcome(context(inline, store), items, lv, newest);
          const got = await outcome(context(inline, store), list, lv, newest);
          assert.deepEqual(got, want, `n=${n} inline=${inline} newest=${newest} store=${store}`);
          assert.ok(made <= 3 * n + 2, `n=${n}: ${made} items made`);
        }
      }
    }
  }
});
