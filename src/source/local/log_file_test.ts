import assert from "node:assert/strict";
import { openLog } from "./log_file.ts";
import { openRoots } from "./roots.ts";
import { scan } from "../../read/scanner.ts";
import type { ReadableLog } from "../../read/readable_log.ts";

Deno.test("a log truncated while it is read is noticed, never taken for its end", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-trunc-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.writeTextFileSync(`${dir}/app.log`, "2024-05-01 10:00:00 INFO some line of text\n".repeat(10000));
  using log = await openLog(openRoots([dir], "/"), "app.log");
  const src = log.bytes(0);
  let seen = 0;
  const r = await scan(src, {
    line() {
      if (++seen === 1) Deno.truncateSync(`${dir}/app.log`, 100); // copytruncate, mid-read
      return true;
    },
  }, { pieceSize: 4096 });
  assert.equal(r.stop, null);
  assert.match(src.changed ?? "", /^shrank from 430000 to 100 bytes/);
  assert.ok(r.lines < 10000);
});

Deno.test("a log rewritten in place while it is read (same size, new mtime) is noticed at the next check", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-rewrite-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const line = "2024-05-01 10:00:00 ERROR some line of text\n"; // 44 bytes
  Deno.writeTextFileSync(`${dir}/app.log`, line.repeat(100_000)); // 4.4 MB
  // An mtime in the past, as a log has when it is overwritten (the kernel's clock is coarse: a write
  // within a few ms of the last one may keep the same mtime, which no check can see).
  Deno.utimeSync(`${dir}/app.log`, new Date(2024, 0, 1), new Date(2024, 0, 1));
  using log = await openLog(openRoots([dir], "/"), "app.log");
  const src = log.bytes(0);
  let seen = 0;
  const r = await scan(src, {
    line() {
      if (++seen === 1) {
        // Zeros over 1 MiB at 3 MiB, in place: the size stays, the modification time changes.
        const f = Deno.openSync(`${dir}/app.log`, { write: true });
        f.seekSync(3 * 1024 * 1024, Deno.SeekMode.Start);
        f.writeSync(new Uint8Array(1024 * 1024));
        f.close();
      }
      return true;
    },
  }, { pieceSize: 4096 });
  assert.equal(r.stop, null);
  assert.match(src.changed ?? "", /^was rewritten in place/);
  // Reading stopped at the first check after the write (1 MiB read), before the zeros at 3 MiB.
  assert.ok(
    r.lines >= Math.floor(1024 * 1024 / 44) && r.lines <= Math.ceil((1024 * 1024 + 4096) / 44),
    `${r.lines}`,
  );
  assert.equal(Deno.statSync(`${dir}/app.log`).size, 4_400_000);
});

Deno.test("lines appended during a call are not read: the answer is the log as the call found it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-grow-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  Deno.writeTextFileSync(`${dir}/app.log`, "a\nb\n");
  using log = await openLog(openRoots([dir], "/"), "app.log");
  Deno.writeTextFileSync(`${dir}/app.log`, "c\n", { append: true });
  const src = log.bytes(0);
  const r = await scan(src, { line: () => true }, {});
  assert.deepEqual([r.lines, r.stop, src.changed, src.check()], [2, null, null, null]);
});

Deno.test("a cancelled scan stops within 50 ms of the abort", async () => {
  const { countLevels } = await import("../../read/count_levels.ts");
  const { DEFAULT_LIMITS } = await import("../../core/config.ts");
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-cancel-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const f = Deno.openSync(`${dir}/big.log`, { write: true, create: true });
  f.truncateSync(8 * 1024 ** 3);
  f.close();
  using log = await openLog(openRoots([dir], "/"), "big.log");
  const ac = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = performance.now();
    ac.abort();
  }, 100);
  const r = await countLevels(log, { ...DEFAULT_LIMITS, signal: ac.signal });
  const latency = performance.now() - abortedAt;
  assert.equal(r.stop_reason, "cancelled");
  assert.ok(latency < 50, `stopped ${latency.toFixed(1)} ms after the abort`);
});

/** `log`, with `hook` run once at the first read of its bytes (a change made during a real read). */
function hooked(log: ReadableLog, hook: () => void): ReadableLog {
  let done = false;
  return {
    ...log,
    bytes(start, end) {
      const src = log.bytes(start, end);
      return {
        get changed() {
          return src.changed;
        },
        check: () => src.check(),
        atEnd: () => src.atEnd(),
        readSync(into) {
          if (!done) (done = true, hook());
          return src.readSync(into);
        },
      };
    },
  };
}

function rewriteInPlace(path: string, at: number): void {
  const f = Deno.openSync(path, { write: true });
  f.seekSync(at, Deno.SeekMode.Start);
  f.writeSync(new TextEncoder().encode("X"));
  f.close();
}

Deno.test("log_tail, and a gzip log's search and count, say file_changed for a rewrite during the read", async () => {
  const { tailLog } = await import("../../read/tail.ts");
  const { searchLog } = await import("../../read/search.ts");
  const { countLevels } = await import("../../read/count_levels.ts");
  const { DEFAULT_LIMITS } = await import("../../core/config.ts");
  const { gzipSync } = await import("node:zlib");
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-rewrite2-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const text = "2024-05-01 10:00:00 ERROR some line of text\n".repeat(1000);
  Deno.writeTextFileSync(`${dir}/app.log`, text);
  Deno.writeFileSync(`${dir}/app.log.gz`, gzipSync(new TextEncoder().encode(text)));
  for (const f of ["app.log", "app.log.gz"]) {
    Deno.utimeSync(`${dir}/${f}`, new Date(2024, 0, 1), new Date(2024, 0, 1));
  }
  const roots = openRoots([dir], "/");
  const opts = { ...DEFAULT_LIMITS, lines: 5, redact: true, gzipMs: 30000 };
  {
    using log = await openLog(roots, "app.log");
    const ok = await tailLog(log, opts);
    assert.equal(ok.lines.length, 5, "unchanged: read");
    await assert.rejects(
      () => tailLog(hooked(log, () => rewriteInPlace(`${dir}/app.log`, 10)), opts),
      /app\.log changed while it was being read: it was rewritten in place/,
    );
  }
  {
    using log = await openLog(roots, "app.log.gz");
    const before = await countLevels(log, DEFAULT_LIMITS);
    assert.deepEqual([before.complete, before.counts.ERROR], [true, 1000]);
    const gz = `${dir}/app.log.gz`;
    const r = await countLevels(hooked(log, () => rewriteInPlace(gz, 100)), DEFAULT_LIMITS);
    assert.deepEqual([r.complete, r.stop_reason], [false, "file_changed"]);
  }
  {
    using log = await openLog(roots, "app.log.gz");
    const gz = `${dir}/app.log.gz`;
    const r = await searchLog(hooked(log, () => rewriteInPlace(gz, 200)), {
      ...DEFAULT_LIMITS,
      text: "ERROR",
      limit: 5000,
      redact: true,
    });
    assert.deepEqual([r.complete, r.stop_reason], [false, "file_changed"]);
  }
});

Deno.test("a log truncated and written again past its old size during a read is noticed (its first bytes differ)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "logpeek-regrow-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  const path = `${dir}/app.log`;
  Deno.writeTextFileSync(path, "2024-05-01 10:00:00 INFO old line\n".repeat(1000));
  using log = await openLog(openRoots([dir], "/"), "app.log");
  const src = log.bytes(0);
  let seen = 0;
  await scan(src, {
    line() {
      // copytruncate, then a writer fills it again past the old size, all during the read.
      if (++seen === 1) Deno.writeTextFileSync(path, "2024-05-01 11:00:00 WARN new line\n".repeat(2000));
      return true;
    },
  }, { pieceSize: 4096 });
  assert.match(src.changed ?? "", /^was truncated and written again \(it grew from 34000 to 68000 bytes/);
});
