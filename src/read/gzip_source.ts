/**
 * Reading gzip-compressed logs (`app.log.1.gz`, what logrotate's `compress` leaves) with the same memory
 * bound as plain logs (issues #5 and #11; `../shared/cases/12-…`).
 *
 * Decompression is synchronous, into fixed buffers: node:zlib's inflate handle (the one zlib's own
 * `gunzipSync` drives; a Deno built-in, native zlib) is handed one buffer of compressed bytes
 * ({@linkcode GZ_PIECE}) and one output buffer ({@linkcode GZ_OUT}, or the reader's own buffer when
 * that is as large), so it never makes more than that room, whatever the compression ratio (a gzip
 * bomb included), and nothing is allocated per piece: reading makes no garbage. Members of a
 * concatenated gzip (`cat a.gz b.gz`) are read one after another, as `zcat` does. Offsets are
 * positions in the decompressed stream. Corrupt or truncated data ends the stream there and says so
 * (`corrupt`), so an answer is never passed off as complete.
 *
 * Measured (issue #11; `bench/gzip_memory.ts`, one `log_search` over 4.3 GB decompressed, and
 * `bench/gzip_inflaters.ts` for the other ways weighed): the piped streaming `createGunzip` this
 * replaces grew the server's peak resident memory by ~25 MiB and was slower than `zcat | rg`; this
 * adds ~5 MiB and is faster than it.
 *
 * Permission: read access to the log.
 *
 * @module
 */

import { constants, createGunzip } from "node:zlib";
import type { ReadableLog } from "./readable_log.ts";
import { type ByteSource, nextTurn, YIELD_MS } from "./scanner.ts";

/**
 * Compressed bytes read from the file at a time (one buffer, reused). Each call into zlib costs tens of
 * microseconds beyond its work: 256 KiB pieces inflate ~20–30 % faster than 64 KiB ones
 * (`bench/gzip_inflaters.ts`).
 */
export const GZ_PIECE = 256 * 1024;

/**
 * The output buffer: a read of fewer bytes (the scanner's 64 KiB pieces) is served from it, so zlib is
 * called for this much at a time; a larger read is inflated straight into the reader's buffer.
 */
export const GZ_OUT = 256 * 1024;

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
 * @throws Error when this runtime's node:zlib has no synchronous handle (`_handle`, `_writeState`: Node's
 *   internals, which Deno 2 mirrors; every test of `gzip_source_test.ts` would then fail).
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
 * Memory: {@linkcode GZ_PIECE} bytes of compressed input, {@linkcode GZ_OUT} of output, and zlib's
 * own state (a 32 KiB window, about 45 KiB in all).
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
  /** Inflated bytes not handed out yet: `#out[#outOff, #outOff + #outLen)`. */
  #out = new Uint8Array(GZ_OUT);
  #outOff = 0;
  #outLen = 0;
  /** No more bytes will be inflated (the end, damage, or close). */
  #ended = false;
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
    return this.#ended && this.#outLen === 0;
  }

  close(): void {
    this.#outLen = 0;
    this.#free();
  }

  /** The inflater is over: its native state is freed (what it made may still be in the output buffer). */
  #free(): void {
    this.#ended = true;
    finalizer.unregister(this.#native);
    free(this.#native);
  }

  /**
   * Hands out decompressed bytes: those left in the output buffer, else inflated straight into `into`
   * when it is at least {@linkcode GZ_OUT} bytes long, else inflated into the output buffer first.
   *
   * @returns How many bytes were written to `into` (at least 1), null at the end (of the data, or where it
   *   is damaged: then `corrupt` says why).
   * @throws Read errors of the file (never turned into a short answer).
   */
  readSync(into: Uint8Array): number | null {
    if (into.length === 0) return this.atEnd() ? null : 0;
    if (this.#outLen === 0) {
      if (this.#ended) return null;
      if (into.length >= GZ_OUT) {
        const n = this.#inflate(into);
        if (n !== null) this.#position += n;
        return n;
      }
      const n = this.#inflate(this.#out);
      if (n === null) return null;
      this.#outOff = 0;
      this.#outLen = n;
    }
    const n = Math.min(into.length, this.#outLen);
    into.set(this.#out.subarray(this.#outOff, this.#outOff + n));
    this.#outOff += n;
    this.#outLen -= n;
    this.#position += n;
    return n;
  }

  /** Inflates into `out` until at least one byte comes out (returns how many), or the end (null). */
  #inflate(out: Uint8Array): number | null {
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
      state[0] = out.length;
      state[1] = this.#inLen;
      handle.writeSync(flush, this.#input, this.#inOff, this.#inLen, out, 0, out.length);
      const produced = out.length - state[0];
      const consumed = this.#inLen - state[1];
      this.#inOff += consumed;
      this.#inLen -= consumed;
      this.#consumed += consumed;
      if (native.error !== null) {
        // The bytes inflated before the damage are handed out (as zcat writes them); the end comes next.
        this.#corrupt = native.error;
        this.#free();
        return produced > 0 ? produced : null;
      }
      if (produced > 0) return produced;
      // Nothing came out and nothing more can go in: the end (bytes after the last member that are
      // not another member are ignored, as node:zlib does).
      if ((this.#eof && this.#inLen === 0) || (consumed === 0 && this.#inLen > 0)) {
        this.#free();
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
    const piece = new Uint8Array(GZ_OUT);
    let yielded = performance.now();
    while (this.#position < to) {
      const start = this.#position;
      const n = this.readSync(piece.subarray(0, Math.min(piece.length, to - start)));
      if (!n) break;
      const end = start + n;
      // The parts of [start, end) that fall in [from, from + head.length) and in [carryFrom, to).
      copyOverlap(piece, start, end, head, from);
      copyOverlap(piece, start, end, carry, carryFrom);
      if (performance.now() - yielded >= YIELD_MS) {
        await nextTurn();
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
