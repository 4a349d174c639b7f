/**
 * Byte scanning with WebAssembly SIMD: counting line feeds, listing their positions, and finding
 * candidate needle positions, 16 bytes at a time.
 *
 * Why: in plain JavaScript the per-call cost of `Uint8Array.prototype.indexOf` (≈ 0.9–2 GB/s here,
 * whether or not it finds anything) dominates a scan; honest line numbers need every line feed
 * counted. `../shared/notes/performance.md` measured a SIMD line count at ≈ 7 GB/s on this machine
 * kind; V8 runs WebAssembly SIMD in Deno with no flags.
 *
 * The module is written out byte by byte below (no build step, no binary blob): each instruction
 * carries its text-format name in a comment. Each scan makes its own instance, so concurrent calls
 * never share a buffer.
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

function body(code: number[]): number[] {
  return [...uleb(code.length), ...code];
}

// Opcodes used below.
const GET = 0x20, SET = 0x21, I32 = 0x41, ADD = 0x6a, SUB = 0x6b, AND = 0x71, SHL = 0x74, CTZ = 0x68;
const GE_U = 0x4f, LT_U = 0x49, GT_S = 0x4a, LE_S = 0x4c, EQ = 0x46, EQZ = 0x45;
const BLOCK = [0x02, 0x40], LOOP = [0x03, 0x40], IF = [0x04, 0x40], END = 0x0b, BR = 0x0c, BR_IF = 0x0d;
const RETURN = 0x0f, LOAD8 = [0x2d, 0, 0], STORE = [0x36, 2, 0];
const V_LOAD = [0xfd, 0x00, 0, 0], SPLAT = [0xfd, 0x0f], V_EQ = [0xfd, 0x23], V_AND = [0xfd, 0x4e];
const BITMASK = [0xfd, 0x64], V_OR = [0xfd, 0x50], V_SUB = [0xfd, 0x71], V_LT_U = [0xfd, 0x26];
const OR = 0x72, CALL = 0x10, TEE = 0x22, V_LOAD_16 = [0xfd, 0x00, 0, 16], SELECT = 0x1b;
/** i16x8.extadd_pairwise_i8x16_u, i32x4.extadd_pairwise_i16x8_u, i32x4.extract_lane. */
const POPCNT = 0x69, LT_S = 0x48;
const PAIRS8 = [0xfd, 0x7d], PAIRS16 = [0xfd, 0x7f], lane = (i: number) => [0xfd, 0x1b, i];

// count(p, n) -> i32: line feeds in [p, p + n). Each 16-byte block adds its i8x16.eq mask (-1 a line
// feed) to byte lanes, summed every 255 blocks (before a lane can overflow): three SIMD operations a
// block instead of a bitmask and popcount. Locals: 2 end, 3 acc, 4 vend, 5 nl (v128), 6 acc8 (v128),
// 7 stop.
// deno-fmt-ignore
const COUNT = [
  3, 3, 0x7f, 2, 0x7b, 1, 0x7f,
  GET, 0, GET, 1, ADD, SET, 2, // end = p + n
  GET, 0, GET, 1, I32, 0x70, AND, ADD, SET, 4, // vend = p + (n & -16)
  I32, 10, ...SPLAT, SET, 5, // nl = splat(10)
  ...BLOCK, ...LOOP, // 255 blocks at a time
  GET, 0, GET, 4, GE_U, BR_IF, 1,
  GET, 0, I32, 0xf0, 0x1f, ADD, GET, 4, GET, 0, I32, 0xf0, 0x1f, ADD, GET, 4, LT_U, SELECT, SET, 7, // stop
  I32, 0, ...SPLAT, SET, 6,
  ...BLOCK, ...LOOP,
  GET, 0, GET, 7, GE_U, BR_IF, 1,
  GET, 6, GET, 0, ...V_LOAD, GET, 5, ...V_EQ, ...V_SUB, SET, 6, // acc8 -= (byte == 10 ? -1 : 0)
  GET, 0, I32, 16, ADD, SET, 0,
  BR, 0, END, END,
  GET, 6, ...PAIRS8, ...PAIRS16, SET, 6, // four 32-bit sums
  GET, 3, GET, 6, ...lane(0), ADD, GET, 6, ...lane(1), ADD, GET, 6, ...lane(2), ADD, GET, 6, ...lane(3), ADD, SET, 3,
  BR, 0, END, END,
  ...BLOCK, ...LOOP,
  GET, 0, GET, 2, GE_U, BR_IF, 1,
  GET, 3, GET, 0, ...LOAD8, I32, 10, EQ, ADD, SET, 3, // acc += (byte == 10)
  GET, 0, I32, 1, ADD, SET, 0,
  BR, 0, END, END,
  GET, 3, END,
];

// newlines(p, end, out, max) -> i32: writes the positions of line feeds in [p, end) as i32 at `out`,
// at most `max` of them; returns how many. Locals: 4 n, 5 m, 6 nl (v128).
// deno-fmt-ignore
const NEWLINES = [
  2, 2, 0x7f, 1, 0x7b,
  I32, 10, ...SPLAT, SET, 6,
  ...BLOCK, ...LOOP, // $done, $blocks
  GET, 0, GET, 1, GE_U, BR_IF, 1, // p >= end: done
  GET, 0, ...V_LOAD, GET, 6, ...V_EQ, ...BITMASK, SET, 5, // m = mask of line feeds at p
  GET, 1, GET, 0, SUB, I32, 16, LT_U, ...IF, // fewer than 16 bytes left: keep only their bits
  GET, 5, I32, 1, GET, 1, GET, 0, SUB, SHL, I32, 1, SUB, AND, SET, 5,
  END,
  ...BLOCK, ...LOOP, // $bitsDone, $bits
  GET, 5, EQZ, BR_IF, 1,
  GET, 4, GET, 3, GE_U, BR_IF, 3, // out full: done
  GET, 2, GET, 4, I32, 2, SHL, ADD, GET, 0, GET, 5, CTZ, ADD, ...STORE, // out[n] = p + ctz(m)
  GET, 4, I32, 1, ADD, SET, 4,
  GET, 5, GET, 5, I32, 1, SUB, AND, SET, 5, // m &= m - 1
  BR, 0, END, END,
  GET, 0, I32, 16, ADD, SET, 0,
  BR, 0, END, END,
  GET, 4, END,
];

// find2(p, last, b1, o1, m1, b2, o2, m2) -> i32: the first s in [p, last] with
// (buf[s+o1] | m1) == b1 and (buf[s+o2] | m2) == b2, or -1. A mask of 0x20 makes an ASCII letter match
// in either case (b lower-case); 0 matches exactly. Locals: 8 v1, 9 v2, 10 mv1, 11 mv2 (v128), 12 m.
// deno-fmt-ignore
const FIND2 = [
  2, 4, 0x7b, 1, 0x7f,
  GET, 2, ...SPLAT, SET, 8,
  GET, 5, ...SPLAT, SET, 9,
  GET, 4, ...SPLAT, SET, 10,
  GET, 7, ...SPLAT, SET, 11,
  ...BLOCK, ...LOOP,
  GET, 0, GET, 1, GT_S, BR_IF, 1, // p > last: none
  GET, 0, GET, 3, ADD, ...V_LOAD, GET, 10, ...V_OR, GET, 8, ...V_EQ,
  GET, 0, GET, 6, ADD, ...V_LOAD, GET, 11, ...V_OR, GET, 9, ...V_EQ,
  ...V_AND, ...BITMASK, SET, 12,
  GET, 12, ...IF,
  GET, 0, GET, 12, CTZ, ADD, SET, 0, // s = p + ctz(m)
  GET, 0, GET, 1, LE_S, ...IF, GET, 0, RETURN, END,
  I32, 0x7f, RETURN, // -1
  END,
  GET, 0, I32, 16, ADD, SET, 0,
  BR, 0, END, END,
  I32, 0x7f, END, // -1
];

// findCount(p, last, b1, o1, m1, b2, o2, m2, out) -> i32: find2 and, in the same pass, the line feeds
// in [p, s) (s the candidate returned), or in [p, last] when there is none (-1), stored as i32 at
// `out`: one read of the bytes where find2 then count read them twice. 32 bytes a step while they are
// all candidates in range, then 16: each step adds popcnt of its line-feed mask, cut at the candidate
// or past `last`. Locals: 9 v1, 10 v2, 11 mv1,
// 12 mv2, 13 nl (v128), 14 m, 15 cnt, 16 nlm, 17 s.
/**
 * The code of findCount; with `high`, findCountHigh: the same, and the offset of the first byte ≥ 0x80 in
 * the blocks it loaded (from p; -1 for none) stored at `out + 4`. Locals: 18 high, 19-20 the two blocks
 * at p, 21 the OR of every block loaded at p (v128), 22 p at the start, 23-24 for finding the first.
 */
function findCountCode(high: boolean): number[] {
  // At the end: where the first byte ≥ 0x80 is, when the OR of the blocks shows one (the blocks from the
  // start again, 16 bytes a step, up to the first that holds one; none in ASCII text).
  // deno-fmt-ignore
  const FIRST_HIGH = [
    I32, 0x7f, SET, 18,
    GET, 21, ...BITMASK, ...IF,
    GET, 22, SET, 23,
    ...BLOCK, ...LOOP,
    GET, 23, ...V_LOAD, ...BITMASK, TEE, 24, BR_IF, 1,
    GET, 23, I32, 16, ADD, SET, 23,
    BR, 0, END, END,
    GET, 23, GET, 24, CTZ, ADD, SET, 18,
    END,
  ];
  const save = [GET, 8, GET, 15, ...STORE, ...(high ? [...FIRST_HIGH, GET, 8, GET, 18, 0x36, 2, 4] : [])];
  // A block at `p + o` compared with a rare byte, OR-ed with its mask first (case folding).
  const at = (o: number, load: number[], mask: number, byte: number) => [
    ...[GET, 0, GET, o, ADD, ...load],
    ...[GET, mask, ...V_OR, GET, byte, ...V_EQ],
  ];
  // The blocks at p (locals 19, 20) OR-ed into local 21: where a byte ≥ 0x80 is, is found at the end.
  const HIGH_32 = [GET, 21, GET, 19, ...V_OR, GET, 20, ...V_OR, SET, 21];
  const HIGH_16 = [GET, 21, GET, 19, ...V_OR, SET, 21];
  // deno-fmt-ignore
  return [
  4, 5, 0x7b, 5, 0x7f, 3, 0x7b, 3, 0x7f, // locals 9-13 v128, 14-18 i32, 19-21 v128, 22-24 i32
  ...(high ? [GET, 0, SET, 22] : []), // where the blocks start
  GET, 2, ...SPLAT, SET, 9,
  GET, 5, ...SPLAT, SET, 10,
  GET, 4, ...SPLAT, SET, 11,
  GET, 7, ...SPLAT, SET, 12,
  I32, 10, ...SPLAT, SET, 13,
  ...BLOCK, ...LOOP, // 32 bytes a step while all 32 candidates are in range: one branch for both blocks
  GET, 1, GET, 0, SUB, I32, 31, LT_S, BR_IF, 1, // last - p < 31: the 16-byte steps below
  GET, 0, ...V_LOAD, TEE, 19, GET, 13, ...V_EQ, ...BITMASK,
  GET, 0, ...V_LOAD_16, TEE, 20, GET, 13, ...V_EQ, ...BITMASK, I32, 16, SHL, OR, SET, 16, // nlm: 32 bits
  ...(high ? HIGH_32 : []),
  ...at(3, V_LOAD, 11, 9), ...at(6, V_LOAD, 12, 10), ...V_AND, ...BITMASK,
  ...at(3, V_LOAD_16, 11, 9), ...at(6, V_LOAD_16, 12, 10), ...V_AND, ...BITMASK,
  I32, 16, SHL, OR, SET, 14, // m: 32 bits
  GET, 14, ...IF,
  GET, 0, GET, 14, CTZ, ADD, SET, 17, // s = p + ctz(m), at most last
  GET, 15, GET, 16, I32, 1, GET, 17, GET, 0, SUB, SHL, I32, 1, SUB, AND, POPCNT, ADD, SET, 15,
  ...save, GET, 17, RETURN,
  END,
  GET, 15, GET, 16, POPCNT, ADD, SET, 15,
  GET, 0, I32, 32, ADD, SET, 0,
  BR, 0, END, END,
  ...BLOCK, ...LOOP,
  GET, 0, GET, 1, GT_S, BR_IF, 1, // p > last: none
  GET, 0, ...V_LOAD, TEE, 19, GET, 13, ...V_EQ, ...BITMASK, SET, 16, // nlm = line feeds at p
  ...(high ? HIGH_16 : []),
  ...at(3, V_LOAD, 11, 9), ...at(6, V_LOAD, 12, 10), ...V_AND, ...BITMASK, SET, 14,
  GET, 14, ...IF,
  GET, 0, GET, 14, CTZ, ADD, SET, 17, // s = p + ctz(m)
  GET, 17, GET, 1, LE_S, ...IF,
  GET, 15, GET, 16, I32, 1, GET, 17, GET, 0, SUB, SHL, I32, 1, SUB, AND, POPCNT, ADD, SET, 15,
  ...save, GET, 17, RETURN, // the line feeds in [p, s); s
  END,
  GET, 15, GET, 16, I32, 1, GET, 1, I32, 1, ADD, GET, 0, SUB, SHL, I32, 1, SUB, AND, POPCNT, ADD, SET, 15,
  ...save, I32, 0x7f, RETURN, // past last: the line feeds in [p, last]; -1
  END,
  GET, 1, I32, 1, ADD, GET, 0, SUB, I32, 16, LT_U, ...IF, // the block passes last: keep [p, last]
  GET, 16, I32, 1, GET, 1, I32, 1, ADD, GET, 0, SUB, SHL, I32, 1, SUB, AND, SET, 16,
  END,
  GET, 15, GET, 16, POPCNT, ADD, SET, 15,
  GET, 0, I32, 16, ADD, SET, 0,
  BR, 0, END, END,
  ...save,
  I32, 0x7f, END, // -1
  ];
}

// first(s, q) -> i32: offset from s of the first ASCII letter or ESC in [s, min(q, s + 32)), else 255.
// Locals: 2 m.
// deno-fmt-ignore
const FIRST = [
  1, 1, 0x7f,
  GET, 0, ...V_LOAD, I32, 0x20, ...SPLAT, ...V_OR, I32, 0xe1, 0x00, ...SPLAT, ...V_SUB, I32, 26, ...SPLAT, ...V_LT_U,
  GET, 0, ...V_LOAD, I32, 27, ...SPLAT, ...V_EQ, ...V_OR, ...BITMASK, SET, 2,
  GET, 2, ...IF,
  GET, 2, CTZ, SET, 2,
  GET, 2, GET, 1, GET, 0, SUB, LT_U, ...IF, GET, 2, RETURN, END,
  I32, 0xff, 0x01, RETURN,
  END,
  GET, 0, I32, 16, ADD, ...V_LOAD, I32, 0x20, ...SPLAT, ...V_OR, I32, 0xe1, 0x00, ...SPLAT, ...V_SUB, I32, 26,
  ...SPLAT, ...V_LT_U,
  GET, 0, I32, 16, ADD, ...V_LOAD, I32, 27, ...SPLAT, ...V_EQ, ...V_OR, ...BITMASK, SET, 2,
  GET, 2, ...IF,
  GET, 2, CTZ, I32, 16, ADD, SET, 2,
  GET, 2, GET, 1, GET, 0, SUB, LT_U, ...IF, GET, 2, RETURN, END,
  END,
  I32, 0xff, 0x01, END,
];

// lines(p, end, out, max) -> i32: like newlines, for lines that start at p (a line start), but each
// entry is `nl | first << 24`: the line feed's position and first(line start, nl). 32 bytes a step
// (two loads, one 32-bit mask: half the loop's branches of 16). Locals: 4 n, 5 m, 6 nl (v128),
// 7 start, 8 at (the line feed's position).
// deno-fmt-ignore
const LINES = [
  3, 2, 0x7f, 1, 0x7b, 2, 0x7f,
  I32, 10, ...SPLAT, SET, 6,
  GET, 0, SET, 7,
  ...BLOCK, ...LOOP,
  GET, 0, GET, 1, GE_U, BR_IF, 1,
  GET, 0, ...V_LOAD, GET, 6, ...V_EQ, ...BITMASK,
  GET, 0, ...V_LOAD_16, GET, 6, ...V_EQ, ...BITMASK, I32, 16, SHL, OR, SET, 5, // m: 32 bits
  GET, 1, GET, 0, SUB, I32, 32, LT_U, ...IF, // fewer than 32 bytes left: keep only their bits
  GET, 5, I32, 1, GET, 1, GET, 0, SUB, SHL, I32, 1, SUB, AND, SET, 5,
  END,
  ...BLOCK, ...LOOP,
  GET, 5, EQZ, BR_IF, 1,
  GET, 4, GET, 3, GE_U, BR_IF, 3,
  GET, 2, GET, 4, I32, 2, SHL, ADD, // address of out[n]
  GET, 0, GET, 5, CTZ, ADD, TEE, 8, // nl
  GET, 7, GET, 8, CALL, 3, I32, 24, SHL, OR, // | first(start, nl) << 24
  ...STORE,
  GET, 8, I32, 1, ADD, SET, 7, // start = nl + 1
  GET, 4, I32, 1, ADD, SET, 4,
  GET, 5, GET, 5, I32, 1, SUB, AND, SET, 5,
  BR, 0, END, END,
  GET, 0, I32, 32, ADD, SET, 0,
  BR, 0, END, END,
  GET, 4, END,
];

// deno-fmt-ignore
const MODULE_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [
    4,
    0x60, 2, 0x7f, 0x7f, 1, 0x7f, // 0: (i32 i32) -> i32
    0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, // 1: (i32 × 4) -> i32
    0x60, 8, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, // 2: (i32 × 8) -> i32
    0x60, 9, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, // 3: (i32 × 9) -> i32
  ]),
  ...section(3, [7, 0, 1, 2, 0, 1, 3, 3]), // count, newlines, find2, first, lines, findCount, findCountHigh
  ...section(5, [1, 0x00, 1]), // one memory, 1 page at least; grown to fit
  ...section(7, [
    7,
    ...name("count"), 0x00, 0,
    ...name("findCount"), 0x00, 5,
    ...name("findCountHigh"), 0x00, 6,
    ...name("lines"), 0x00, 4,
    ...name("newlines"), 0x00, 1,
    ...name("find2"), 0x00, 2,
    ...name("memory"), 0x02, 0,
  ]),
  ...section(10, [
    7,
    ...body(COUNT),
    ...body(NEWLINES),
    ...body(FIND2),
    ...body(FIRST),
    ...body(LINES),
    ...body(findCountCode(false)),
    ...body(findCountCode(true)),
  ]),
]);

let compiled: WebAssembly.Module | undefined;

/** How many line-feed positions one {@linkcode SimdScanner.newlines} call lists at most. */
export const POSITIONS = 4096;
/** Bytes past the buffer that SIMD loads may touch (never used as data). */
const SLACK = 32;

/** A byte buffer in its own WebAssembly memory, and SIMD scans over it. */
export interface SimdScanner {
  /** The buffer: `size` bytes. Read file pieces into it. */
  readonly buf: Uint8Array;
  /** Line-feed positions written by {@linkcode SimdScanner.newlines}. */
  readonly positions: Int32Array;
  /**
   * Counts bytes equal to 0x0A in `buf[start, end)`.
   *
   * @throws {RangeError} when the range is not inside `buf`.
   */
  count(start: number, end: number): number;
  /**
   * Lists the positions of line feeds in `buf[start, end)` into `positions`, at most
   * {@linkcode POSITIONS}, in order; returns how many. Call again from the last one + 1 for more.
   */
  newlines(start: number, end: number): number;
  /**
   * Like {@linkcode SimdScanner.newlines} for lines that begin at `start` (a line start), but each
   * entry of `positions` is `nl | first << 24`: the line feed's position, and the offset in its line
   * of the first ASCII letter or ESC within the line's first 32 bytes (255 when there is none) — the
   * hint {@linkcode levelOf} starts from.
   */
  lines(start: number, end: number): number;
  /**
   * The first `s` in `[start, last]` with `buf[s + o1] === b1` and `buf[s + o2] === b2`, or -1: the
   * candidates for a needle whose bytes at offsets o1, o2 are b1, b2 (memchr's "packed pair" idea).
   * With masks m1, m2 of 0x20, `(byte | 0x20)` is compared: an ASCII letter matches in either case.
   * `last + max(o1, o2)` must be inside the buffer.
   */
  find2(
    start: number,
    last: number,
    b1: number,
    o1: number,
    b2: number,
    o2: number,
    m1?: number,
    m2?: number,
  ): number;
  /**
   * {@linkcode SimdScanner.find2} that counts line feeds in the same pass: returns the first candidate
   * `s` in `[start, last]` (or -1), and {@linkcode SimdScanner.counted} then gives the line feeds in
   * `buf[start, s)` (with -1: in `buf[start, last]`). `last + 16` and `last + max(o1, o2)` must be
   * inside the buffer and its slack (as for find2, `last` is at most the buffer's size less the needle's).
   */
  findCount(
    start: number,
    last: number,
    b1: number,
    o1: number,
    b2: number,
    o2: number,
    m1?: number,
    m2?: number,
  ): number;
  /**
   * {@linkcode SimdScanner.findCount} that also finds the first byte ≥ 0x80 in the 16- or 32-byte blocks
   * from `start` it loaded ({@linkcode SimdScanner.high}): the blocks cover `[start, s]` (`[start, last]`
   * with -1), and may reach up to 31 bytes past it.
   */
  findCountHigh(
    start: number,
    last: number,
    b1: number,
    o1: number,
    b2: number,
    o2: number,
    m1?: number,
    m2?: number,
  ): number;
  /** The line feeds the last {@linkcode SimdScanner.findCount} (or findCountHigh) passed over. */
  counted(): number;
  /**
   * The first byte ≥ 0x80 the last {@linkcode SimdScanner.findCountHigh} loaded, or -1 (then there is none
   * in its `[start, s]`, or `[start, last]`). May lie past `s` or `last`, or in the slack past the buffer.
   */
  high(): number;
}

/**
 * Creates a {@linkcode SimdScanner} whose buffer holds `size` bytes.
 *
 * @param size The buffer size in bytes, at least 1.
 * @throws {RangeError} when `size` is not a positive integer.
 * @example
 * ```ts
 * import { simdScanner } from "./simd.ts";
 * const s = simdScanner(16);
 * s.buf.set(new TextEncoder().encode("a\nb\nc"));
 * console.assert(s.count(0, 5) === 2);
 * console.assert(s.newlines(0, 5) === 2 && s.positions[1] === 3);
 * ```
 */
export function simdScanner(size: number): SimdScanner {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`buffer size must be a positive integer: ${size}`);
  }
  compiled ??= new WebAssembly.Module(MODULE_BYTES);
  const instance = new WebAssembly.Instance(compiled, {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const posAt = Math.ceil((size + SLACK) / 4) * 4;
  const countAt = posAt + POSITIONS * 4; // findCount's count
  const total = countAt + 8; // and findCountHigh's first high byte
  const pages = Math.ceil(total / 65536);
  memory.grow(pages - memory.buffer.byteLength / 65536);
  const ex = instance.exports as Record<string, (...a: number[]) => number>;
  const count = ex.count,
    newlines = ex.newlines,
    find2 = ex.find2,
    lines = ex.lines,
    findCount = ex.findCount;
  const findCountHigh = ex.findCountHigh;
  const countCell = new Int32Array(memory.buffer, countAt, 2);
  return {
    buf: new Uint8Array(memory.buffer, 0, size),
    positions: new Int32Array(memory.buffer, posAt, POSITIONS),
    count(start: number, end: number): number {
      if (start < 0 || end > size || start > end) {
        throw new RangeError(`count range [${start}, ${end}) is outside the buffer of ${size} bytes`);
      }
      return count(start, end - start);
    },
    newlines(start: number, end: number): number {
      if (start < 0 || end > size) throw new RangeError(`range [${start}, ${end}) is outside the buffer`);
      return newlines(start, end, posAt, POSITIONS);
    },
    lines(start: number, end: number): number {
      if (start < 0 || end > size) throw new RangeError(`range [${start}, ${end}) is outside the buffer`);
      return lines(start, end, posAt, POSITIONS);
    },
    find2(
      start: number,
      last: number,
      b1: number,
      o1: number,
      b2: number,
      o2: number,
      m1 = 0,
      m2 = 0,
    ): number {
      return find2(start, last, b1, o1, m1, b2, o2, m2);
    },
    findCount(
      start: number,
      last: number,
      b1: number,
      o1: number,
      b2: number,
      o2: number,
      m1 = 0,
      m2 = 0,
    ): number {
      return findCount(start, last, b1, o1, m1, b2, o2, m2, countAt);
    },
    findCountHigh(
      start: number,
      last: number,
      b1: number,
      o1: number,
      b2: number,
      o2: number,
      m1 = 0,
      m2 = 0,
    ): number {
      return findCountHigh(start, last, b1, o1, m1, b2, o2, m2, countAt);
    },
    counted: () => countCell[0],
    high: () => countCell[1],
  };
}
