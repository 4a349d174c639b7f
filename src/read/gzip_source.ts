/**
 * Reading gzip-compressed logs (`app.log.1.gz`, what logrotate's `compress` leaves) with the same memory
 * bound as plain logs (issues #5 and #11; `../shared/cases/12-…`).
 *
 * Decompression is synchronous, straight into the caller's buffer: node:zlib's inflate handle (the one
 * zlib's own `gunzipSync` drives; a Deno built-in, native zlib) is handed one fixed buffer of compressed
 * bytes ({@linkcode GZ_PIECE}) and the scanner's buffer as its output, so it never makes more than that
 * buffer's room, whatever the compression ratio (a gzip bomb included), and no chunk is allocated per
 * piece: reading makes no garbage. Members of a concatenated gzip (`cat a.gz b.gz`) are read one after
 * another, as `zcat` does. Offsets are positions in the decompressed stream. Corrupt or truncated data
 * ends the stream there and says so (`corrupt`), so an answer is never passed off as complete.
 *
 * Measured (`bench/gzip_memory.ts`, 4 GiB decompressed): the streaming `createGunzip` this replaces
 * grew the server's peak resident memory by 110–160 MiB; this adds a few MiB.
 *
 * Permission: read access to the log.
 *
 * @module
 */

import { constants, createGunzip } from "node:zlib";
import type { ReadableLog } from "./readable_log.ts";
import type { ByteSource } from "./scanner.ts";

/** Compressed bytes read from the file at a time (one buffer, reused). */
export const GZ_PIECE = 65536;

/** A {@linkcode ByteSource} over a gzip log's decompressed bytes, read with `readSync`. */
export interface GzipSource extends ByteSource {
  /** Why decompression failed (corrupt or truncated data: zlib's message), else null. */
  readonly corrupt: string | null;
  /**
   * How the compressed file changed while it was read (it shrank or was rewritten in place: reading
   * stopped there, so `corrupt` may say the stream ended early), or null; checked again when called.
   */
  check(): string | null;
  /** Decompressed bytes handed out so far (skipped ones included). */
  readonly position: number;
  /**
   * Compressed bytes consumed by the decompressor so far (progress is reported in these, of the file's
   * size); at most {@linkcode GZ_PIECE} behind what was read from the file.
   */
  readonly compressedPosition: number;
  /**
   * Discards decompressed bytes up to offset `to`, keeping the first `headBytes` from `from` on and
   * the last `carryBytes` before `to` (a resumed scan's line start and carry). Lets other work run
   * every 20 ms of decompression.
   */
  skip(
    from: number,
    to: number,
    headBytes: number,
    carryBytes: number,
  ): Promise<{ head: Uint8Array; carry: Uint8Array }>;
  /**
   * Frees the decompressor's native state (about 45 KiB, which V8 does not see). Done at the end of the
   * stream and on damage; call it when a scan stops before the end. Idempotent; reading afterwards
   * gives the end.
   */
  close(): void;
}

/** node:zlib's inflate handle, as zlib.js drives it synchronously (`processChunkSync`). */
interface ZlibHandle {
  /**
   * Inflates `inLen` bytes of `input` from `inOff` into `output[outOff, outOff + outLen)`; the room left
   * in the output and the input left unread are then in the stream's `_writeState` ([0] and [1]).
   */
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    output: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
  close(): void;
  /** Called (during `writeSync`) with zlib's message when the data is damaged or cut short. */
  onerror: (message: string, errno: number) => void;
}

/** What a finalizer needs to free an inflater that was never closed (it must not hold the source). */
interface Native {
  handle: ZlibHandle;
  open: boolean;
  /** zlib's message for damaged or cut data, set during `writeSync`. */
  error: string | null;
}

/** Frees the native state of a source dropped before its end without `close()` (a safety net). */
const finalizer = new FinalizationRegistry<Native>((n) => free(n));

function free(n: Native): void {
  if (!n.open) return;
  n.open = false;
  n.handle.close();
}

/**
 * A gunzip handle of node:zlib with its write state.
 *
 * @throws Error when this runtime's node:zlib has no synchronous handle (a test pins it for Deno).
 */
function gunzipHandle(): { handle: ZlibHandle; state: Uint32Array } {
  const z = createGunzip() as unknown as { _handle?: ZlibHandle; _writeState?: unknown };
  const handle = z._handle;
  const state = z._writeState;
  if (!handle || typeof handle.writeSync !== "function" || !(state instanceof Uint32Array)) {
    throw new Error("node:zlib has no synchronous inflate handle in this runtime");
  }
  return { handle, state };
}

/**
 * Opens the decompressed stream of a gzip log, from its start.
 *
 * Memory: {@linkcode GZ_PIECE} bytes of compressed input and zlib's own state (a 32 KiB window);
 * output goes into the caller's buffer.
 *
 * @param log The open log (its magic bytes said gzip).
 * @throws Error when node:zlib offers no synchronous handle (see `gunzipHandle`).
 */
export function gzipSource(log: ReadableLog): GzipSource {
  return new Gunzip(log);
}

class Gunzip implements GzipSource {
  #raw;
  #native: Native;
  #state: Uint32Array;
  #input = new Uint8Array(GZ_PIECE);
  /** The unread compressed bytes are `#input[#inOff, #inOff + #inLen)`. */
  #inOff = 0;
  #inLen = 0;
  #eof = false;
  #done = false;
  #corrupt: string | null = null;
  #position = 0;
  #consumed = 0;

  constructor(log: ReadableLog) {
    this.#raw = log.bytes(0);
    const { handle, state } = gunzipHandle();
    this.#state = state;
    const native: Native = { handle, open: true, error: null };
    // Called by zlib during writeSync; the handle is not used again after it. (It must not reach this
    // object, or the finalizer's hold on `native` would keep it alive.)
    handle.onerror = (message) => (native.error = message);
    this.#native = native;
    finalizer.register(this, this.#native, this.#native);
  }

  get corrupt(): string | null {
    return this.#corrupt;
  }

  get position(): number {
    return this.#position;
  }

  get compressedPosition(): number {
    return this.#consumed;
  }

  check(): string | null {
    return this.#raw.check();
  }

  atEnd(): boolean {
    return this.#done;
  }

  close(): void {
    this.#done = true;
    finalizer.unregister(this.#native);
    free(this.#native);
  }

  /**
   * Inflates into `into` until at least one byte comes out, or the end.
   *
   * @returns How many bytes were written to `into`, null at the end (of the data, or where it is damaged:
   *   then `corrupt` says why).
   * @throws Read errors of the file (never turned into a short answer).
   */
  readSync(into: Uint8Array): number | null {
    if (this.#done) return null;
    if (into.length === 0) return 0;
    const native = this.#native;
    const { handle } = native;
    const state = this.#state;
    while (true) {
      if (this.#inLen === 0 && !this.#eof) {
        const n = this.#raw.readSync(this.#input);
        if (n) {
          this.#inOff = 0;
          this.#inLen = n;
        } else this.#eof = true;
      }
      // At the file's end, Z_FINISH makes zlib say "unexpected end of file" if a member is unfinished.
      const flush = this.#eof ? constants.Z_FINISH : constants.Z_NO_FLUSH;
      // Preset as "nothing done", so a call that fails before zlib writes its state hands out nothing.
      state[0] = into.length;
      state[1] = this.#inLen;
      handle.writeSync(flush, this.#input, this.#inOff, this.#inLen, into, 0, into.length);
      const produced = into.length - state[0];
      const consumed = this.#inLen - state[1];
      this.#inOff += consumed;
      this.#inLen -= consumed;
      this.#consumed += consumed;
      if (native.error !== null) {
        // The bytes inflated before the damage are handed out (as zcat writes them); the end comes next.
        this.#corrupt = native.error;
        this.close();
        this.#position += produced;
        return produced > 0 ? produced : null;
      }
      if (produced > 0) {
        this.#position += produced;
        return produced;
      }
      // Nothing came out and nothing more can go in: the end (bytes after the last member that are
      // not another member are ignored, as node:zlib does).
      if ((this.#eof && this.#inLen === 0) || (consumed === 0 && this.#inLen > 0)) {
        this.close();
        return null;
      }
    }
  }

  async skip(
    from: number,
    to: number,
    headBytes: number,
    carryBytes: number,
  ): Promise<{ head: Uint8Array; carry: Uint8Array }> {
    const head = new Uint8Array(Math.min(headBytes, Math.max(0, to - from)));
    const carry = new Uint8Array(Math.min(carryBytes, Math.max(0, to - from)));
    const carryFrom = to - carry.length;
    const piece = new Uint8Array(65536);
    let yielded = performance.now();
    while (this.#position < to) {
      const start = this.#position;
      const n = this.readSync(piece.subarray(0, Math.min(piece.length, to - start)));
      if (!n) break;
      const end = start + n;
      // The parts of [start, end) that fall in [from, from + head.length) and in [carryFrom, to).
      copyOverlap(piece, start, end, head, from);
      copyOverlap(piece, start, end, carry, carryFrom);
      if (performance.now() - yielded >= 20) {
        await new Promise((r) => setTimeout(r, 0));
        yielded = performance.now();
      }
    }
    return { head, carry };
  }
}

/** Copies the bytes of `piece` (stream offsets `[start, end)`) that fall in `dst` (stream offset `at` on). */
function copyOverlap(piece: Uint8Array, start: number, end: number, dst: Uint8Array, at: number): void {
  const lo = Math.max(start, at);
  const hi = Math.min(end, at + dst.length);
  if (lo < hi) dst.set(piece.subarray(lo - start, hi - start), lo - at);
}
