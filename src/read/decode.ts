/**
 * Decoding one returned line: UTF-8 with replacement, counted, and cut to a number of characters.
 *
 * The seed (`../shared/seeds/000_…`, "Плохие байты") asks that invalid bytes become U+FFFD and that the
 * answer count them, so a model sees that a line is damaged rather than that it holds odd characters.
 * Replacement follows the WHATWG Encoding Standard's UTF-8 decoder (one U+FFFD per maximal ill-formed
 * subpart), which is what `TextDecoder` does; the count here is of bytes, not of U+FFFD characters.
 *
 * @module
 */

/** One decoded line. */
export interface DecodedLine {
  /** The text: at most `maxChars` Unicode code points. */
  text: string;
  /** How many bytes of the returned part were invalid UTF-8 and replaced by U+FFFD. */
  replaced: number;
  /** True when `text` is not the whole line (cut to `maxChars`, or only the line's start was held). */
  cut: boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes the start of one line.
 *
 * @param bytes The line's bytes without its end of line, or only its first bytes when `partial`.
 * @param maxChars The most Unicode code points to return (`LOGPEEK_MAX_LINE`), at least 1.
 * @param partial True when `bytes` is only the start of a longer line: an incomplete UTF-8 sequence at
 *   its very end is then left out (the rest of it was not read) and not counted as replaced, and the
 *   result is `cut`.
 * @returns The text, the replaced-byte count of the returned part, and whether it was cut.
 * @example
 * ```ts
 * import { decodeLine } from "./decode.ts";
 * const r = decodeLine(new Uint8Array([0x6f, 0x6b, 0xff, 0xfe]), 1000, false);
 * console.assert(r.text === "ok\uFFFD\uFFFD" && r.replaced === 2 && !r.cut);
 * ```
 */
export function decodeLine(bytes: Uint8Array, maxChars: number, partial: boolean): DecodedLine {
  const n = bytes.length;
  // Most lines: whole, no longer in bytes than the characters allowed (so never cut), valid UTF-8.
  // The strict decoder takes them in one native call (issue #13: the loop below cost ~1 µs a line).
  if (!partial && n <= maxChars) {
    try {
      return { text: strict.decode(bytes), replaced: 0, cut: false };
    } catch {
      // invalid UTF-8: the loop below counts and replaces it
    }
  }
  let i = 0;
  let chars = 0;
  let replaced = 0;
  let stopped = false; // an incomplete sequence at the end of a partial line
  while (i < n && chars < maxChars) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      chars++;
      continue;
    }
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else {
      replaced++; // a byte that can never start a sequence
      i++;
      chars++;
      continue;
    }
    let j = i + 1;
    let ok = true;
    for (let k = 1; k < len; k++, j++) {
      if (j >= n) {
        ok = false;
        break;
      }
      const c = bytes[j];
      if (c < lo || c > hi) {
        ok = false;
        break;
      }
      lo = 0x80;
      hi = 0xbf;
    }
    if (ok) {
      i = j;
      chars++;
    } else if (j >= n && partial) {
      stopped = true; // the sequence may go on in bytes that were not read
      break;
    } else {
      replaced += j - i; // the maximal subpart becomes one U+FFFD
      i = j;
      chars++;
    }
  }
  const text = decoder.decode(bytes.subarray(0, i));
  return { text, replaced, cut: partial || stopped || i < n };
}
