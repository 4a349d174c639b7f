/**
 * Issue #10 item 15: a log rewritten in place while a call reads it (zeros written far ahead of the scan,
 * the size unchanged) makes the answer incomplete with `file_changed`, never `complete: true` with wrong
 * counts; a log appended to while it is read is answered completely as it was when the call began.
 *
 * The change is made during a real scan through the real client: at the call's first progress
 * notification (sent after 250 ms of reading), far ahead of where the scan is: `log_levels` reads about
 * 400 MB/s here, so it is some 100 MB into the 256 MB file when 1 MiB of zeros is written 8 MiB before
 * its end, and would need another ~300 ms to get there; it stops within 1 MiB of the write (at a third
 * of the file, in the runs seen). Counts are checked against `grep -c`.
 */
import assert from "node:assert/strict";
import { tempDir } from "./fixtures.ts";
import { connect, type Session } from "./mcp_client.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const MiB = 1024 * 1024;
const INFO = "2024-05-01 10:00:00 INFO request served id=12345 path=/api/v1/items status=200 ms=12\n";
const ERROR = "2024-05-01 10:00:00 ERROR request failed id=12345 path=/api/v1/items status=500 ms=12\n";

/** A 256 MB log of 10-line blocks (9 INFO, 1 ERROR), with an old modification time. */
function bigLog(dir: string): string {
  const path = `${dir}/big.log`;
  const block = new TextEncoder().encode((INFO.repeat(9) + ERROR).repeat(1000));
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  for (let i = 0; i < Math.floor(256 * MiB / block.length); i++) f.writeSync(block);
  f.close();
  Deno.utimeSync(path, new Date(2024, 0, 1), new Date(2024, 0, 1));
  return path;
}

/** `grep -c` of a fixed string: the independent count. */
function grepCount(text: string, path: string): number {
  const out = new Deno.Command("grep", { args: ["-c", "-F", "-a", text, path], stdout: "piped" })
    .outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

/** Calls `tool` with progress notifications; `onFirst` runs (once) at the first one. */
async function callWhile(
  s: Session,
  tool: string,
  args: Record<string, unknown>,
  onFirst: () => void,
): Promise<{ r: { structuredContent?: Record<string, unknown>; content: unknown }; progressed: boolean }> {
  let progressed = false;
  const t0 = performance.now();
  const r = await s.client.callTool({ name: tool, arguments: args }, undefined, {
    onprogress: () => {
      if (!progressed) {
        progressed = true;
        console.error(`${tool}: first progress at ${(performance.now() - t0).toFixed(0)} ms`);
        onFirst();
      }
    },
    timeout: 60_000,
  });
  console.error(`${tool}: answered at ${(performance.now() - t0).toFixed(0)} ms`);
  return { r: r as { structuredContent?: Record<string, unknown>; content: unknown }, progressed };
}

/** Writes `bytes` at `offset` in place (the size stays). */
function overwrite(path: string, offset: number, bytes: Uint8Array): void {
  const f = Deno.openSync(path, { write: true });
  f.seekSync(offset, Deno.SeekMode.Start);
  f.writeSync(bytes);
  f.close();
}

Deno.test({
  name: "file_changed: zeros written in place far ahead of a log_levels scan make it incomplete, not wrong",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-changed-");
    const path = bigLog(dir);
    const size = Deno.statSync(path).size;
    const [info, error] = [grepCount(" INFO ", path), grepCount(" ERROR ", path)];
    assert.deepEqual([info, error], [2_835_000, 315_000]);
    await using s = await connect([dir], {
      LOGPEEK_SEARCH_BYTES: String(1 << 30),
      LOGPEEK_SEARCH_MS: "60000",
    });

    const { r, progressed } = await callWhile(s, "log_levels", { file: "big.log" }, () => {
      overwrite(path, size - 8 * MiB, new Uint8Array(MiB)); // 1 MiB of zeros, 8 MiB before the end
    });
    assert.ok(progressed, "the overwrite was made during the scan");
    const sc = r.structuredContent!;
    assert.equal(Deno.statSync(path).size, size, "an in-place overwrite: the size is unchanged");
    assert.deepEqual([sc.complete, sc.stop_reason], [false, "file_changed"]);
    const counts = sc.counts as Record<string, number>;
    // What was counted is a part read before the change was seen: fewer lines than the file has.
    assert.ok(counts.ERROR < error && counts.INFO < info, JSON.stringify(counts));
    assert.ok(sc.total_lines as number < info + error);
    assert.match(
      (r.content as { text: string }[])[0].text,
      /NOT complete \(stop_reason: file_changed\): the log changed while it was read .*rewritten in place/,
    );

    // Called again on the file as it now is: complete, and exactly grep's counts of the new content.
    const [info2, error2] = [grepCount(" INFO ", path), grepCount(" ERROR ", path)];
    assert.ok(error2 < error, `${error2} ERROR lines are left after the zeros`);
    const again = (await s.call("log_levels", { file: "big.log" })).structuredContent;
    assert.deepEqual([again.complete, again.counts.INFO, again.counts.ERROR], [true, info2, error2]);

    // The same through log_search (a pattern, so the scan is slow): file_changed, no next_cursor.
    const { r: sr } = await callWhile(
      s,
      "log_search",
      { file: "big.log", text: "ERROR .*status=999", regex: true },
      () => overwrite(path, size - 64 * MiB, new TextEncoder().encode("X".repeat(MiB))),
    );
    const ss = sr.structuredContent!;
    assert.deepEqual([ss.complete, ss.stop_reason, ss.next_cursor], [false, "file_changed", null]);
  },
});

Deno.test({
  name:
    "file_changed: lines appended during a scan are not read, and the answer is complete for the log as it was",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-appended-");
    const path = bigLog(dir);
    const [info, error] = [grepCount(" INFO ", path), grepCount(" ERROR ", path)];
    await using s = await connect([dir]);
    const { r, progressed } = await callWhile(s, "log_levels", { file: "big.log" }, () => {
      Deno.writeTextFileSync(path, ERROR.repeat(10_000), { append: true });
    });
    assert.ok(progressed);
    const sc = r.structuredContent!;
    const counts = sc.counts as Record<string, number>;
    assert.deepEqual([sc.complete, sc.stop_reason, counts.INFO, counts.ERROR], [true, null, info, error]);
    assert.equal(grepCount(" ERROR ", path), error + 10_000, "the lines were appended");
  },
});
