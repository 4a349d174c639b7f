/**
 * The bytes a scan reads: a plain log from an offset, or a gzip log's decompressed stream (skipped
 * ahead to the offset), with what a resumed scan needs, and how the source says it was not read whole.
 *
 * @module
 */

import { gzipSource } from "./gzip_source.ts";
import type { ReadableLog, ResumePoint } from "./readable_log.ts";
import type { ByteSource, ScanOptions, StopReason } from "./scanner.ts";

/** A source ready to scan. */
export interface ScanSource {
  src: ByteSource;
  /** The scanner's `resume` option, when the scan starts inside a line. */
  resume: ScanOptions["resume"];
  /**
   * After the scan: `file_changed` (the log shrank or was rewritten in place while it was read; checked
   * once more when called), `corrupt_gzip`, or null. It ends the source (a gzip log's decompressor is
   * freed): call it once the scan is over.
   */
  damage(): StopReason | null;
  /** The file offset reached after `bytes` read by the scan (compressed bytes for a gzip log). */
  reached(bytes: number): number;
}

/**
 * Opens the bytes of `log` from `from`.
 *
 * @param log The open log.
 * @param from Where to start (a cursor's resume point, or the start).
 * @param headBytes How many of a line's first bytes the scan keeps.
 * @param carryBytes How many bytes before `from.off` a match may straddle.
 */
export async function sourceFor(
  log: ReadableLog,
  from: ResumePoint,
  headBytes: number,
  carryBytes: number,
): Promise<ScanSource> {
  if (log.gzip) {
    const src = gzipSource(log);
    let resume: ScanOptions["resume"];
    if (from.off > 0) {
      const { head, carry } = await src.skip(from.ls, from.off, headBytes, carryBytes);
      if (from.off > from.ls) resume = { head, lineLen: from.off - from.ls, carry, pending: from.pending };
    }
    return {
      src,
      resume,
      // A change of the compressed file cuts its stream short: that is the cause, not damage. The scan
      // is over: the decompressor's native state is freed (a scan stopped by a limit or a budget).
      damage: () => {
        src.close();
        return src.check() ? "file_changed" : src.corrupt ? "corrupt_gzip" : null;
      },
      reached: () => src.compressedPosition,
    };
  }
  const src = log.bytes(from.off);
  return {
    src,
    resume: resumeState(log, from, headBytes, carryBytes),
    damage: () => (src.check() ? "file_changed" : null),
    reached: (bytes) => from.off + bytes,
  };
}

/**
 * The scanner's resume state for a point inside a line: that line's first bytes, and the bytes just
 * before `off` a match could straddle. Undefined at a line start.
 */
export function resumeState(
  log: ReadableLog,
  p: ResumePoint,
  headBytes: number,
  carryBytes: number,
): { head: Uint8Array; lineLen: number; carry: Uint8Array; pending: boolean } | undefined {
  if (p.off <= p.ls) return undefined;
  const lineLen = p.off - p.ls;
  const c = Math.min(carryBytes, lineLen);
  return {
    head: log.readRange(p.ls, Math.min(headBytes, lineLen)),
    lineLen,
    carry: log.readRange(p.off - c, c),
    pending: p.pending,
  };
}

/**
 * The first `max` bytes of `log`'s lines (decompressed for a gzip log; after its BOM), cut after the
 * last end of line in them when there are more: what `timestamp.ts` `lineClock` learns a layout from.
 *
 * @param log The open log.
 * @param max At most this many bytes.
 * @returns The bytes (empty for an empty log, or a gzip log that cannot be read: its scan says why).
 */
export function logHead(log: ReadableLog, max: number): Uint8Array {
  let head: Uint8Array;
  if (log.gzip) {
    const src = gzipSource(log), buf = new Uint8Array(max);
    let n = 0;
    try {
      while (n < max) {
        const r = src.readSync(buf.subarray(n));
        if (r === null || r === 0) break;
        n += r;
      }
    } catch {
      // damage is the scan's to report
    } finally {
      src.close();
    }
    head = buf.subarray(0, n); // a BOM is skipped by the clock
  } else head = log.readRange(log.bomLength, max);
  if (head.length < max) return head;
  const nl = head.lastIndexOf(10);
  return nl < 0 ? head : head.subarray(0, nl + 1);
}
