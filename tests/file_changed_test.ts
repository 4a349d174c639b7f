/**
 * Issue #10 item 15: a log rewritten in place while a call reads it (zeros written far ahead of the scan,
 * the size unchanged) makes the answer incomplete with `file_changed`, never `complete: true` with wrong
 * counts; a log appended to while it is read is answered completely as it was when the call began.
 *
 * The change is made during a real scan through the real client, at the call's first progress
 * notification (sent after 250 ms of reading), far ahead of where the scan is. The scan that must see
 * it is a regex `log_search` whose literal is in every line (every line tested: 100–250 MB/s, so a
 * 256 MB log takes one to three seconds and the first notification comes while most of it is unread). A
 * `log_levels` scan reads ~1 GB/s on a quiet machine and ends before its first notification, so it is
 * not timed here: the check lives in `source/local/log_file.ts` under every tool, and `log_file_test.ts` tests
 * it for counting, tail and gzip with a hook, without timing. Counts are checked against `grep -c`.
 */
import assert from "node:assert/strict";
import { tempDir } from "./fixtures.ts";
import { connect, type Session } from "./mcp_client.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const MiB = 1024 * 1024;
const INFO = "2024-05-01 10:00:00 INFO request served id=12345 path=/api/v1/items status=200 ms=12\n";
const ERROR = "2024-05-01 10:00:00 ERROR request failed id=12345 path=/api/v1/items status=500 ms=12\n";

/** A `mb` MB log of 10-line blocks (9 INFO, 1 ERROR), with an old modification time. */
/**
 * Matches the ERROR lines once they say status=999. The alternation leaves it no literal every match
 * holds, so no prefilter skips a line: each is run through the pattern (≈ 100–250 MB/s here).
 */
const PATTERN = "[A-Z]+ request f[a-z]+ .*status=999|^x{3}y";

function bigLog(dir: string, mb = 256): string {
  const path = `${dir}/big.log`;
  const block = new TextEncoder().encode((INFO.repeat(9) + ERROR).repeat(1000));
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  for (let i = 0; i < Math.floor(mb * MiB / block.length); i++) f.writeSync(block);
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

/** `length` bytes of the file at `offset` (not the whole file: the scan must still be running). */
function readAt(path: string, offset: number, length: number): Uint8Array {
  const f = Deno.openSync(path);
  f.seekSync(offset, Deno.SeekMode.Start);
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) got += f.readSync(buf.subarray(got)) ?? length;
  f.close();
  return buf;
}

/** Writes `bytes` at `offset` in place (the size stays). */
function overwrite(path: string, offset: number, bytes: Uint8Array): void {
  const f = Deno.openSync(path, { write: true });
  f.seekSync(offset, Deno.SeekMode.Start);
  f.writeSync(bytes);
  f.close();
}

Deno.test({
  name: "file_changed: an in-place overwrite far ahead of a scan makes it incomplete, never wrong",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-changed-");
    const path = bigLog(dir);
    const size = Deno.statSync(path).size;
    const [info, error] = [grepCount(" INFO ", path), grepCount(" ERROR ", path)];
    assert.equal(info, 9 * error);
    await using s = await connect([dir], {
      LOGPEEK_SEARCH_BYTES: String(1 << 30),
      LOGPEEK_SEARCH_MS: "60000",
    });

    // A pattern that matches ERROR lines only once they are overwritten with "status=999": 16 KiB,
    // 8 MiB before the end, written in place (same size) while the scan is far from them.
    const { r, progressed } = await callWhile(
      s,
      "log_search",
      { file: "big.log", text: PATTERN, regex: true },
      () => {
        const tail = new TextDecoder().decode(readAt(path, size - 8 * MiB, 16384));
        overwrite(
          path,
          size - 8 * MiB,
          new TextEncoder().encode(tail.replaceAll("status=500", "status=999")),
        );
      },
    );
    assert.ok(progressed, "the overwrite was made during the scan");
    assert.equal(Deno.statSync(path).size, size, "an in-place overwrite: the size is unchanged");
    const sc = r.structuredContent!;
    assert.deepEqual([sc.complete, sc.stop_reason, sc.next_cursor], [false, "file_changed", null]);
    assert.match(
      (r.content as { text: string }[])[0].text,
      /NOT complete \(stop_reason: file_changed\): the log changed while it was read .*rewritten in place/,
    );

    // Called again on the file as it now is: complete, with exactly grep's count.
    const now = grepCount("status=999", path);
    assert.ok(now > 0);
    const again = (await s.call("log_search", {
      file: "big.log",
      text: PATTERN,
      regex: true,
      limit: 5000,
    }))
      .structuredContent;
    assert.deepEqual([again.complete, again.matches.length], [true, now]);
  },
});

Deno.test({
  name:
    "file_changed: lines appended during a scan are not read, and the answer is complete for the log as it was",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-appended-");
    const path = bigLog(dir);
    const before = grepCount("status=999", path);
    assert.equal(before, 0);
    await using s = await connect([dir], {
      LOGPEEK_SEARCH_BYTES: String(1 << 30),
      LOGPEEK_SEARCH_MS: "60000",
    });
    const { r, progressed } = await callWhile(
      s,
      "log_search",
      { file: "big.log", text: PATTERN, regex: true },
      () => Deno.writeTextFileSync(path, ERROR.replace("500", "999").repeat(10_000), { append: true }),
    );
    assert.ok(progressed, "the lines were appended during the scan");
    const sc = r.structuredContent!;
    assert.deepEqual([sc.complete, sc.stop_reason, (sc.matches as unknown[]).length], [true, null, before]);
    assert.equal(grepCount("status=999", path), 10_000, "the lines were appended");
  },
});
