/**
 * A range of Unicode scalar values as UTF-8 byte sequences: the ranges of bytes, one per position, whose
 * sequences encode exactly the range's scalar values (surrogates excluded, as a strict decoder does). The
 * split follows Rust's `utf8-ranges` (regex-syntax `Utf8Sequences`) and RE2's compiler: a range is cut
 * where its UTF-8 length changes, then where its values stop sharing all bytes but the last ones.
 *
 * @module
 */

/** The largest scalar value of each UTF-8 length (1 to 4 bytes). */
const MAX_OF_LENGTH = [0x7f, 0x7ff, 0xffff, 0x10ffff];

/**
 * Calls `emit` once for each byte sequence of the scalar values in `[lo, hi]`: `ranges` holds, for each
 * byte position, its lowest then its highest byte (`[lo0, hi0, lo1, hi1, …]`, 2 to 8 numbers). The
 * sequences are disjoint; together they encode each value of the range once, and nothing else.
 *
 * @param lo The first scalar value (0 or more).
 * @param hi The last scalar value (at most 0x10FFFF; a range with `hi < lo` emits nothing).
 * @param emit Receives each sequence's ranges (an array reused between calls: copy it to keep it).
 */
export function utf8Sequences(lo: number, hi: number, emit: (ranges: number[]) => void): void {
  const stack: number[] = [];
  if (lo <= 0xd7ff) stack.push(lo, Math.min(hi, 0xd7ff));
  if (hi >= 0xe000) stack.push(Math.max(lo, 0xe000), hi);
  const a: number[] = [];
  const b: number[] = [];
  const ranges: number[] = [];
  next: while (stack.length > 0) {
    const e = stack.pop()!;
    const s = stack.pop()!;
    if (e < s) continue;
    for (const max of MAX_OF_LENGTH) {
      if (s <= max && max < e) {
        stack.push(max + 1, e, s, max);
        continue next;
      }
    }
    if (e <= 0x7f) {
      ranges.length = 0;
      ranges.push(s, e);
      emit(ranges);
      continue;
    }
    for (let i = 1; i < 4; i++) {
      const m = (1 << (6 * i)) - 1;
      if ((s & ~m) !== (e & ~m)) {
        if ((s & m) !== 0) {
          stack.push((s | m) + 1, e, s, s | m);
          continue next;
        }
        if ((e & m) !== m) {
          stack.push(e & ~m, e, s, (e & ~m) - 1);
          continue next;
        }
      }
    }
    encode(s, a);
    encode(e, b);
    ranges.length = 0;
    for (let i = 0; i < a.length; i++) ranges.push(a[i], b[i]);
    emit(ranges);
  }
}

/** The UTF-8 bytes of scalar value `r` (0x80 or more) into `out`. */
function encode(r: number, out: number[]): void {
  out.length = 0;
  if (r <= 0x7ff) out.push(0xc0 | (r >> 6), 0x80 | (r & 0x3f));
  else if (r <= 0xffff) out.push(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f));
  else {
    out.push(0xf0 | (r >> 18), 0x80 | ((r >> 12) & 0x3f), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f));
  }
}
