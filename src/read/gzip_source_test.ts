/**
 * The gzip source against `gzip` and `zcat` (an independent compressor and decompressor): the same bytes
 * whatever the read size, concatenated members, truncated and damaged files, skip().
 *
 * @module
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { openLog } from "../source/local/log_file.ts";
import { openRoots, type Root } from "../source/local/roots.ts";
import { GZ_OUT, GZ_PIECE, type GzipSource, gzipSource } from "./gzip_source.ts";
import { searchLog } from "./search.ts";
import { DEFAULT_LIMITS } from "../core/config.ts";

const dir = Deno.makeTempDirSync({ prefix: "logpeek-gzip-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const roots: Root[] = openRoots([dir], "/");

/** True when `cmd` runs here; else prints a SKIP line naming what is not tested. */
function have(cmd: string, what: string): boolean {
  try {
    new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    console.error(`SKIP ${what}: ${cmd} is not installed`);
    return false;
  }
}

/** `zcat`'s output for a file in `dir`, and whether it exited 0. */
function zcat(name: string): { out: Uint8Array; ok: boolean } {
  const r = new Deno.Command("zcat", { args: [`${dir}/${name}`], stdout: "piped", stderr: "null" })
    .outputSync();
  return { out: r.stdout, ok: r.success };
}

/** `gzip -<level>`'s output for `bytes` (the compressor is not the one logpeek reads with). */
function gzip(bytes: Uint8Array, level = 1): Uint8Array {
  Deno.writeFileSync(`${dir}/plain`, bytes);
  const r = new Deno.Command("gzip", { args: [`-${level}`, "-c", `${dir}/plain`], stdout: "piped" })
    .outputSync();
  assert.ok(r.success);
  return r.stdout;
}

function rng(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** About `size` bytes of varied log lines: levels, lengths up to 5000 bytes, CRLF, bytes ≥ 0x80, empty lines. */
function varied(size: number, seed: number): Uint8Array {
  const rnd = rng(seed);
  const enc = new TextEncoder();
  const out = new Uint8Array(size + 6000);
  let n = 0;
  for (let i = 0; n < size; i++) {
    const lv = ["INFO", "WARN", "ERROR", "DEBUG", "E/Tag( 12):"][Math.floor(rnd() * 5)];
    const head = enc.encode(`2024-05-01 10:${String(i % 60).padStart(2, "0")}:00 ${lv} seq=${i} `);
    out.set(head, n);
    n += head.length;
    const k = rnd();
    const len = k < 0.05 ? 0 : k < 0.08 ? 1000 + Math.floor(rnd() * 4000) : Math.floor(rnd() * 160);
    for (let j = 0; j < len; j++) {
      const r = rnd();
      out[n++] = r < 0.01 ? 0x80 + Math.floor(rnd() * 128) : r < 0.2 ? 32 : 97 + Math.floor(rnd() * 26);
    }
    if (rnd() < 0.1) out[n++] = 13;
    out[n++] = 10;
  }
  return out.subarray(0, n);
}

/** Everything the source hands out, read `size` bytes at a time. */
function readAll(src: GzipSource, size: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const buf = new Uint8Array(size);
  let total = 0;
  while (true) {
    const n = src.readSync(buf);
    if (n === null) break;
    assert.ok(n > 0 && n <= size, `a read of ${size} gave ${n}`);
    parts.push(buf.slice(0, n));
    total += n;
  }
  assert.equal(src.atEnd(), true);
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) (all.set(p, at), at += p.length);
  return all;
}

async function readFile(name: string, size: number): Promise<{ bytes: Uint8Array; src: GzipSource }> {
  using log = await openLog(roots, name);
  const src = gzipSource(log);
  return { bytes: readAll(src, size), src };
}

Deno.test("gzip source: the bytes zcat gives, whatever the read size (tiny ones included)", async () => {
  if (!have("gzip", "gzip source vs zcat") || !have("zcat", "gzip source vs zcat")) return;
  const small = varied(120_000, 1);
  const big = varied(3_000_000, 2);
  Deno.writeFileSync(`${dir}/small.log.gz`, gzip(small, 9));
  Deno.writeFileSync(`${dir}/big.log.gz`, gzip(big, 1));
  const size = Deno.statSync(`${dir}/big.log.gz`).size;
  assert.ok(size > 3 * GZ_PIECE, "more than a few compressed pieces");
  for (
    const [name, sizes] of [["small.log.gz", [1, 3, 7, 64]], ["big.log.gz", [
      1000,
      4096,
      65536,
      GZ_OUT,
      GZ_OUT + 12345,
    ]]] as const
  ) {
    const want = zcat(name);
    assert.equal(want.ok, true);
    for (const n of sizes) {
      const { bytes, src } = await readFile(name, n);
      assert.equal(bytes.length, want.out.length, `${name} read ${n} at a time`);
      assert.equal(src.position, want.out.length);
      assert.deepEqual(bytes, want.out, `${name} read ${n} at a time`);
      assert.equal(src.corrupt, null);
      assert.equal(src.compressedPosition, Deno.statSync(`${dir}/${name}`).size, "progress ends at the size");
    }
  }
});

Deno.test("gzip source: concatenated members (cat a.gz b.gz, empty ones too) are read one after another, as zcat does", async () => {
  if (!have("gzip", "multi-member gzip") || !have("zcat", "multi-member gzip")) return;
  const [pa, pb, pn] = [varied(200_000, 3), varied(50_000, 4), varied(30_000, 5)];
  const a = gzip(pa, 6);
  const b = gzip(pb, 1);
  const empty = gzip(new Uint8Array(0));
  const node = new Uint8Array(gzipSync(pn));
  Deno.writeFileSync(`${dir}/multi.log.gz`, new Uint8Array([...a, ...empty, ...b, ...node, ...a, ...empty]));
  const want = zcat("multi.log.gz");
  assert.equal(want.ok, true);
  assert.deepEqual(want.out, new Uint8Array([...pa, ...pb, ...pn, ...pa]), "zcat reads every member");
  for (const n of [5, 65536]) {
    const { bytes, src } = await readFile("multi.log.gz", n);
    assert.deepEqual(bytes, want.out);
    assert.equal(src.corrupt, null);
  }
});

Deno.test("gzip source: a truncated file gives what zcat gives, then says 'unexpected end of file'", async () => {
  if (!have("gzip", "truncated gzip") || !have("zcat", "truncated gzip")) return;
  const whole = gzip(varied(400_000, 6), 6);
  for (const cut of [10, 11, 100, 5000, whole.length >> 1, whole.length - 8, whole.length - 1]) {
    Deno.writeFileSync(`${dir}/cut.log.gz`, whole.subarray(0, cut));
    const want = zcat("cut.log.gz");
    assert.equal(want.ok, false, `zcat fails too (cut at ${cut})`);
    for (const n of [3, 65536, GZ_OUT]) {
      const { bytes, src } = await readFile("cut.log.gz", n);
      assert.equal(bytes.length, want.out.length, `cut at ${cut}, read ${n} at a time: ${src.corrupt}`);
      assert.deepEqual(bytes, want.out, `cut at ${cut}, read ${n} at a time`);
      assert.equal(src.corrupt, "unexpected end of file");
    }
  }
});

Deno.test("gzip source: damaged data (deflate bytes, CRC, length, garbage after the end) is corrupt, what came before is zcat's", async () => {
  if (!have("gzip", "damaged gzip") || !have("zcat", "damaged gzip")) return;
  const whole = gzip(varied(400_000, 7), 6);
  const damaged: [string, (b: Uint8Array) => Uint8Array, string][] = [
    ["deflate data", (b) => (b.fill(0xff, 30_000, 30_050), b), "."],
    ["CRC", (b) => (b[b.length - 6] ^= 1, b), "incorrect data check"],
    ["length", (b) => (b[b.length - 2] ^= 1, b), "incorrect length check"],
    [
      "garbage after the end",
      (b) => new Uint8Array([...b, ...new TextEncoder().encode("hello\n")]),
      "header",
    ],
  ];
  for (const [what, damage, message] of damaged) {
    Deno.writeFileSync(`${dir}/bad.log.gz`, damage(whole.slice()));
    const want = zcat("bad.log.gz");
    assert.equal(want.ok, false, `${what}: zcat fails or warns`);
    for (const n of [7, 65536, GZ_OUT + 1]) {
      const { bytes, src } = await readFile("bad.log.gz", n);
      assert.match(src.corrupt ?? "", new RegExp(message), `${what}: ${src.corrupt}`);
      assert.ok(bytes.length <= want.out.length, what);
      assert.deepEqual(bytes, want.out.subarray(0, bytes.length), `${what}: a prefix of zcat's output`);
    }
    // And a search over it says it is not complete.
    using log = await openLog(roots, "bad.log.gz");
    const r = await searchLog(log, {
      ...DEFAULT_LIMITS,
      searchMs: 1e9,
      searchBytes: 1e12,
      text: "seq=",
      limit: 1e9,
      redact: false,
    });
    assert.equal(r.complete, false, what);
    assert.equal(r.stop_reason, "corrupt_gzip", what);
  }
});

Deno.test("gzip source: skip() keeps the head and carry zcat has there, and reading goes on at the offset", async () => {
  if (!have("gzip", "gzip skip") || !have("zcat", "gzip skip")) return;
  Deno.writeFileSync(`${dir}/skip.log.gz`, gzip(varied(500_000, 8), 6));
  const want = zcat("skip.log.gz").out;
  const rnd = rng(9);
  for (let t = 0; t < 12; t++) {
    const to = t === 0 ? want.length : Math.floor(rnd() * want.length);
    const from = Math.max(0, to - Math.floor(rnd() * 200_000));
    const headBytes = [0, 1, 4001, 300_000][t % 4];
    const carryBytes = [0, 2, 70_000][t % 3];
    using log = await openLog(roots, "skip.log.gz");
    const src = gzipSource(log);
    const { head, carry } = await src.skip(from, to, headBytes, carryBytes);
    assert.deepEqual(head, want.subarray(from, from + Math.min(headBytes, to - from)), `head ${from}..${to}`);
    assert.deepEqual(carry, want.subarray(to - Math.min(carryBytes, to - from), to), `carry ${from}..${to}`);
    assert.equal(src.position, to);
    assert.deepEqual(readAll(src, 1000), want.subarray(to), `the rest after ${to}`);
    assert.equal(src.position, want.length);
  }
});

Deno.test("gzip source: close() ends the stream (a scan stopped early frees the decompressor)", async () => {
  if (!have("gzip", "gzip close")) return;
  Deno.writeFileSync(`${dir}/close.log.gz`, gzip(varied(100_000, 10)));
  using log = await openLog(roots, "close.log.gz");
  const src = gzipSource(log);
  assert.ok((src.readSync(new Uint8Array(100)) ?? 0) > 0);
  src.close();
  src.close();
  assert.equal(src.readSync(new Uint8Array(100)), null);
  assert.equal(src.atEnd(), true);
  assert.equal(src.corrupt, null);
});
