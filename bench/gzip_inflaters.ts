/**
 * The ways to inflate a gzip log in Deno, weighed for issue #11 (what `read/gzip_source.ts` chose and
 * why): decompressed bytes per second and the growth of the process's peak resident memory, each way in
 * its own process (run as the server runs: `--max-semi-space-size=4`), interleaved, medians.
 *
 * ```sh
 * deno run -A --no-lock bench/gzip_inflaters.ts [--runs 3] [--file /tmp/gz/big.log.gz] [--small /tmp/gz/small.log.gz]
 * ```
 *
 * (`--no-lock`: the pure-JavaScript inflaters are npm packages loaded only here, not dependencies of
 * logpeek.) The files are made by `bench/gzip_memory.ts` (1 GiB of real lines, `gzip -1`; the small one warms
 * each way up before it is measured). Growth: the peak (VmHWM) after, less the resident memory (VmRSS)
 * before. Ways:
 *
 * - `source`: `gzipSource` (node:zlib's inflate handle, `writeSync` into a fixed 64 KiB buffer,
 *   compressed bytes read 64 KiB at a time), as a scan reads it;
 * - `handle-256k`, `handle-1m`: the same handle with compressed pieces and output of 256 KiB / 1 MiB;
 * - `stream`: the streaming `createGunzip` fed from `Readable.from` in 4 KiB pieces, 16 KiB chunks
 *   (the code before);
 * - `web`: `DecompressionStream("gzip")` over the file's `readable`;
 * - `fflate`: npm fflate's streaming `Gunzip`, 64 KiB pushes;
 * - `pako`: npm pako's `Inflate`, 64 KiB pushes, 64 KiB output chunks.
 *
 * (zlib's `inflateSync`/`gunzipSync` take a whole stream per call, not pieces of one: they would hold
 * the whole decompressed log, so they are not among the ways.)
 *
 * Permissions: all (`--allow-all`: each way runs in a child process that reads `/proc/self/status`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { basename, dirname } from "node:path";

const WAYS = ["source", "handle-256k", "handle-1m", "stream", "web", "fflate", "pako"] as const;
type Way = typeof WAYS[number];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "3" },
    file: { type: "string", default: "/tmp/gz/big.log.gz" },
    small: { type: "string", default: "/tmp/gz/small.log.gz" },
    one: { type: "string" },
  },
});

/** The process's `VmRSS` and `VmHWM` in bytes. */
function memory(): { rss: number; hwm: number } {
  const s = Deno.readTextFileSync("/proc/self/status");
  const kb = (k: string) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, "m"))![1]) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Inflates `file` the given way; returns the decompressed byte count. */
async function inflate(way: Way, file: string): Promise<number> {
  let total = 0;
  const pieces = function* (size: number) {
    const f = Deno.openSync(file);
    const buf = new Uint8Array(size);
    try {
      while (true) {
        const n = f.readSync(buf);
        if (!n) return;
        yield buf.subarray(0, n);
      }
    } finally {
      f.close();
    }
  };
  switch (way) {
    case "source": {
      const { openRoots } = await import("../src/source/local/roots.ts");
      const { openLog } = await import("../src/source/local/log_file.ts");
      const { gzipSource } = await import("../src/read/gzip_source.ts");
      using log = await openLog(openRoots([dirname(file)], "/"), basename(file));
      const src = gzipSource(log);
      const out = new Uint8Array(65536);
      for (let n; (n = src.readSync(out));) total += n;
      if (src.corrupt) throw new Error(src.corrupt);
      return total;
    }
    case "handle-256k":
    case "handle-1m": {
      const size = way === "handle-1m" ? 1 << 20 : 1 << 18;
      // deno-lint-ignore no-explicit-any
      const z: any = createGunzip();
      const h = z._handle;
      const st: Uint32Array = z._writeState;
      const out = new Uint8Array(size);
      const f = Deno.openSync(file);
      const input = new Uint8Array(size);
      let off = 0, len = 0, eof = false;
      while (true) {
        if (len === 0 && !eof) {
          const n = f.readSync(input);
          if (n) (off = 0, len = n);
          else eof = true;
        }
        h.writeSync(eof ? 4 : 0, input, off, len, out, 0, out.length);
        const produced = out.length - st[0];
        const consumed = len - st[1];
        off += consumed;
        len -= consumed;
        total += produced;
        if (produced === 0 && eof && len === 0) break;
      }
      f.close();
      h.close();
      return total;
    }
    case "stream": {
      const input = Readable.from(
        (function* () {
          for (const p of pieces(4096)) yield Buffer.from(p);
        })(),
        { objectMode: false, highWaterMark: 4096 },
      );
      const gunzip = createGunzip({ chunkSize: 16384 });
      input.pipe(gunzip);
      for await (const c of gunzip) total += (c as Uint8Array).length;
      return total;
    }
    case "web": {
      const f = await Deno.open(file);
      for await (const c of f.readable.pipeThrough(new DecompressionStream("gzip"))) total += c.length;
      return total;
    }
    case "fflate": {
      const spec = "npm:fflate@0.8.2";
      const { Gunzip } = await import(spec);
      const g = new Gunzip((c: Uint8Array) => (total += c.length));
      for (const p of pieces(65536)) g.push(p);
      g.push(new Uint8Array(0), true);
      return total;
    }
    case "pako": {
      const spec = "npm:pako@2.1.0";
      const pako = (await import(spec)).default;
      const inf = new pako.Inflate({ chunkSize: 65536 });
      inf.onData = (c: Uint8Array) => (total += c.length);
      for (const p of pieces(65536)) inf.push(p, false);
      inf.push(new Uint8Array(0), true);
      if (inf.err) throw new Error(inf.msg);
      return total;
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

if (import.meta.main) {
  if (values.one) {
    // The child: one way, one line of JSON.
    const way = values.one as Way;
    await inflate(way, values.small!); // modules loaded, code warm
    const before = memory();
    const t = performance.now();
    const bytes = await inflate(way, values.file!);
    const s = (performance.now() - t) / 1000;
    const after = memory();
    console.log(JSON.stringify({ way, bytes, s, growth: after.hwm - Math.max(before.rss, 0) }));
  } else {
    const rows: { way: Way; bytes: number; s: number; growth: number }[] = [];
    for (let run = 1; run <= Number(values.runs); run++) {
      for (const way of WAYS) {
        const r = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--no-lock",
            "--v8-flags=--max-semi-space-size=4",
            new URL(import.meta.url).pathname,
            "--one",
            way,
            "--file",
            values.file!,
            "--small",
            values.small!,
          ],
          stderr: "inherit",
        }).outputSync();
        const row = JSON.parse(new TextDecoder().decode(r.stdout));
        rows.push(row);
        console.log(
          `run ${run} ${way}: ${row.bytes} bytes, ${row.s.toFixed(2)} s, ` +
            `${(row.bytes / row.s / 1e9).toFixed(3)} GB/s, peak +${(row.growth / 2 ** 20).toFixed(1)} MiB`,
        );
      }
    }
    console.log(`\nmedians of ${values.runs} runs (${values.file})`);
    for (const way of WAYS) {
      const mine = rows.filter((r) => r.way === way);
      const gbs = median(mine.map((r) => r.bytes / r.s / 1e9));
      const growth = median(mine.map((r) => r.growth));
      console.log(`${way.padEnd(12)} ${gbs.toFixed(3)} GB/s, peak +${(growth / 2 ** 20).toFixed(1)} MiB`);
    }
  }
}
