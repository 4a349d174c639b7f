/**
 * Reading gzip-compressed logs (`app.log.1.gz`, what logrotate's `compress` leaves) through streaming
 * decompression, with the same memory bound as plain logs (issue #5; `../shared/cases/12-…`).
 *
 * Decompression is node:zlib's streaming gunzip (a Deno built-in): it hands out decompressed chunks of
 * at most 64 KiB whatever the compression ratio (a gzip bomb included), and stream backpressure keeps
 * only a few queued; compressed bytes are fed in pieces of {@linkcode GZ_PIECE}. Offsets are positions
 * in the decompressed stream. A corrupt or truncated file ends the stream early and says so
 * (`corrupt`), so an answer is never passed off as complete.
 *
 * Permission: read access to the log.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { ReadableLog } from "./readable_log.ts";
import type { ByteSource } from "./scanner.ts";

/** Compressed bytes fed to the decompressor at a time. */
export const GZ_PIECE = 4096;

/** A {@linkcode ByteSource} over a gzip log's decompressed bytes. */
export interface GzipSource extends ByteSource {
  /** Why decompression failed (corrupt or truncated data), else null. */
  readonly corrupt: string | null;
  /**
   * How the compressed file changed while it was read (it shrank or was rewritten in place: reading
   * stopped there, so `corrupt` may say the stream ended early), or null; checked again when called.
   */
  check(): string | null;
  /** Decompressed bytes handed out so far (skipped ones included). */
  readonly position: number;
  /** Compressed bytes read from the file so far (progress is reported in these, of the file's size). */
  readonly compressedPosition: number;
  /**
   * Discards decompressed bytes up to offset `to`, keeping the first `headBytes` from `from` on and
   * the last `carryBytes` before `to` (a resumed scan's line start and carry).
   */
  skip(
    from: number,
    to: number,
    headBytes: number,
    carryBytes: number,
  ): Promise<{ head: Uint8Array; carry: Uint8Array }>;
}

/**
 * Opens the decompressed stream of a gzip log, from its start.
 *
 * @param log The open log (its magic bytes said gzip).
 */
export function gzipSource(log: ReadableLog): GzipSource {
  const raw = log.bytes(0);
  let compressed = 0;
  const input = Readable.from(
    (function* () {
      const piece = new Uint8Array(GZ_PIECE);
      while (true) {
        const n = raw.readSync(piece);
        if (!n) return;
        compressed += n;
        yield Buffer.from(piece.subarray(0, n));
      }
    })(),
    { objectMode: false, highWaterMark: GZ_PIECE },
  );
  // node:zlib hands out decompressed chunks of at most `chunkSize`, whatever the ratio, and the
  // stream's backpressure keeps at most a few of them queued.
  const gunzip = createGunzip({ chunkSize: 16384 });
  input.on("error", (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  const chunks: AsyncIterator<Uint8Array> = gunzip[Symbol.asyncIterator]();
  let chunk: Uint8Array | null = null;
  let at = 0; // next unread byte of chunk
  let done = false;
  let corrupt: string | null = null;
  let position = 0;

  const fill = async (): Promise<boolean> => {
    while (!done && (!chunk || at >= chunk.length)) {
      try {
        const r = await chunks.next();
        if (r.done) done = true;
        else {
          chunk = r.value;
          at = 0;
        }
      } catch (e) {
        done = true;
        corrupt = e instanceof Error ? e.message : String(e);
      }
    }
    return !done || (chunk !== null && at < chunk.length);
  };
  const read = async (into: Uint8Array): Promise<number | null> => {
    if (!(await fill()) || !chunk) return null;
    const n = Math.min(into.length, chunk.length - at);
    into.set(chunk.subarray(at, at + n));
    at += n;
    position += n;
    return n;
  };
  return {
    get corrupt() {
      return corrupt;
    },
    get position() {
      return position;
    },
    get compressedPosition() {
      return compressed;
    },
    check: () => raw.check(),
    read,
    readSync(): number | null {
      throw new TypeError("a gzip source is read with read(), not readSync()");
    },
    atEnd: () => done && (!chunk || at >= chunk.length),
    async skip(from, to, headBytes, carryBytes) {
      const head = new Uint8Array(Math.min(headBytes, Math.max(0, to - from)));
      const carry = new Uint8Array(Math.min(carryBytes, Math.max(0, to - from)));
      const piece = new Uint8Array(65536);
      while (position < to) {
        const start = position;
        const n = await read(piece.subarray(0, Math.min(piece.length, to - position)));
        if (!n) break;
        for (let i = 0; i < n; i++) {
          const off = start + i;
          if (off >= from && off - from < head.length) head[off - from] = piece[i];
          if (off >= to - carry.length) carry[off - (to - carry.length)] = piece[i];
        }
      }
      return { head, carry };
    },
  };
}
