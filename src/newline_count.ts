/**
 * Counting line feeds (0x0A) in raw bytes with WebAssembly SIMD.
 *
 * Line numbers must be honest (counted from the file's start), so every scan counts every newline it
 * passes. In plain JavaScript that count dominates the cost of a search; a 16-byte-wide WebAssembly
 * loop (`i8x16.eq` + `i8x16.bitmask` + `i32.popcnt`) runs near the page-cache limit
 * (`../shared/notes/performance.md`: ≈ 7 GB/s here). V8 runs WebAssembly SIMD in Deno with no flags.
 *
 * The module is written out byte by byte below, so there is no build step and no binary blob: each
 * instruction carries its text-format name in a comment.
 *
 * @module
 */

/** Unsigned LEB128, as the WebAssembly binary format encodes sizes and counts. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(s: string): number[] {
  return [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
}

// Locals of `count(p, n)`: 0 = p (cursor), 1 = n (length), 2 = end, 3 = acc, 4 = vend, 5 = nl (v128).
const COUNT_BODY = [
  2,
  3,
  0x7f,
  1,
  0x7b, // locals: 3 × i32, 1 × v128
  0x20,
  0,
  0x20,
  1,
  0x6a,
  0x21,
  2, // end = p + n
  0x20,
  0,
  0x20,
  1,
  0x41,
  0x70,
  0x71,
  0x6a,
  0x21,
  4, // vend = p + (n & -16)
  0x41,
  10,
  0xfd,
  0x0f,
  0x21,
  5, // nl = i8x16.splat(10)
  0x02,
  0x40,
  0x03,
  0x40, // block, loop
  0x20,
  0,
  0x20,
  4,
  0x4f,
  0x0d,
  1, // br_if 1 (p >= vend)
  0x20,
  3, // acc
  0x20,
  0,
  0xfd,
  0x00,
  0,
  0, // v128.load p
  0x20,
  5,
  0xfd,
  0x23, // i8x16.eq nl
  0xfd,
  0x64,
  0x69, // i8x16.bitmask, i32.popcnt
  0x6a,
  0x21,
  3, // acc += …
  0x20,
  0,
  0x41,
  16,
  0x6a,
  0x21,
  0, // p += 16
  0x0c,
  0,
  0x0b,
  0x0b, // br 0, end loop, end block
  0x02,
  0x40,
  0x03,
  0x40, // block, loop
  0x20,
  0,
  0x20,
  2,
  0x4f,
  0x0d,
  1, // br_if 1 (p >= end)
  0x20,
  3,
  0x20,
  0,
  0x2d,
  0,
  0, // acc, i32.load8_u p
  0x41,
  10,
  0x46,
  0x6a,
  0x21,
  3, // acc += (byte == 10)
  0x20,
  0,
  0x41,
  1,
  0x6a,
  0x21,
  0, // p += 1
  0x0c,
  0,
  0x0b,
  0x0b, // br 0, end loop, end block
  0x20,
  3,
  0x0b, // return acc
];

const MODULE_BYTES = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]), // type 0: (i32, i32) -> i32
  ...section(3, [1, 0]), // one function of type 0
  ...section(5, [1, 0x00, 2]), // one memory, 2 pages (128 KiB) at least
  ...section(7, [2, ...name("count"), 0x00, 0, ...name("memory"), 0x02, 0]),
  ...section(10, [1, ...uleb(COUNT_BODY.length), ...COUNT_BODY]),
]);

let compiled: WebAssembly.Module | undefined;

/**
 * A byte buffer that lives in its own WebAssembly memory, with a SIMD line-feed counter over it.
 * Each scan makes its own, so concurrent calls never share a buffer.
 */
export interface NewlineCounter {
  /** The buffer: `size` bytes at the start of the instance's memory. Read file pieces into it. */
  readonly buf: Uint8Array;
  /**
   * Counts bytes equal to 0x0A in `buf[start, end)`.
   *
   * @throws {RangeError} when the range is not inside `buf`.
   */
  count(start: number, end: number): number;
}

/**
 * Creates a {@linkcode NewlineCounter} whose buffer holds `size` bytes.
 *
 * @param size The buffer size in bytes (the scanner's piece size), at least 1.
 * @throws {RangeError} when `size` is not a positive integer.
 * @example
 * ```ts
 * import { newlineCounter } from "./newline_count.ts";
 * const c = newlineCounter(16);
 * c.buf.set(new TextEncoder().encode("a\nb\nc"));
 * console.assert(c.count(0, 5) === 2);
 * ```
 */
export function newlineCounter(size: number): NewlineCounter {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`buffer size must be a positive integer: ${size}`);
  }
  compiled ??= new WebAssembly.Module(MODULE_BYTES);
  const instance = new WebAssembly.Instance(compiled, {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const pages = Math.ceil(size / 65536);
  if (memory.buffer.byteLength < pages * 65536) memory.grow(pages - memory.buffer.byteLength / 65536);
  const fn = instance.exports.count as (p: number, n: number) => number;
  const buf = new Uint8Array(memory.buffer, 0, size);
  return {
    buf,
    count(start: number, end: number): number {
      if (start < 0 || end > size || start > end) {
        throw new RangeError(`count range [${start}, ${end}) is outside the buffer of ${size} bytes`);
      }
      return fn(start, end - start);
    },
  };
}
