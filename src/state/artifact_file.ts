/**
 * An artifact's text file written one item (line) at a time, in batches of
 * {@linkcode WRITE_BATCH_BYTES}: what `artifacts.ts` `ArtifactStore.begin` hands a tool. The store
 * indexes the artifact when it is finished; nothing is in the index, and no other server sees it, before.
 *
 * Memory: each item is encoded into one reused buffer at once, so no item outlives its `add` (strings
 * kept for a batch were promoted to V8's old space, whose garbage grew the peak by tens of MiB; issue #22).
 *
 * Permission: write access to the artifacts directory.
 *
 * @module
 */

/** Items are encoded into a buffer of this many bytes (1 MiB), written when full. */
export const WRITE_BATCH_BYTES = 1024 * 1024;

/** The file calls an artifact's file needs (tests count them). */
export type ArtifactFileFs = Pick<typeof Deno, "writeFileSync" | "truncateSync">;

/** Where a written artifact stands: its bytes and items so far (for a rollback). */
export interface FileMark {
  bytes: number;
  count: number;
}

/** An artifact's text file being written. */
export class ArtifactFile {
  #enc = new TextEncoder();
  #buf = new Uint8Array(WRITE_BATCH_BYTES);
  /** Bytes in the buffer, not yet written. */
  #used = 0;
  /** Bytes written to the file. */
  #size = 0;
  #count = 0;
  #first = true;

  /**
   * @param path The file (`<id>.txt`), made by the first write (mode 0600).
   * @param fs The file calls.
   */
  constructor(readonly path: string, readonly fs: ArtifactFileFs) {}

  /** Writes what the buffer holds (the first write makes the file, the others append). */
  #flush(): void {
    this.fs.writeFileSync(
      this.path,
      this.#buf.subarray(0, this.#used),
      this.#first ? { mode: 0o600 } : { append: true, mode: 0o600 },
    );
    this.#size += this.#used;
    this.#used = 0;
    this.#first = false;
  }

  /** Encodes `s` after what the buffer holds, writing the buffer out whenever it is full. */
  #put(s: string): void {
    let rest = s;
    for (;;) {
      // encodeInto never splits a character: a pair that does not fit waits for the next buffer.
      const { read, written } = this.#enc.encodeInto(rest, this.#buf.subarray(this.#used));
      this.#used += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.#flush();
    }
  }

  /**
   * Adds one item as a line (a line feed inside it is written as a space).
   *
   * @throws Deno's errors when the file cannot be written.
   */
  add(l: string): void {
    this.#put(l.includes("\n") ? l.replaceAll("\n", " ") : l);
    this.#put("\n");
    this.#count++;
  }

  /** Where the file stands now. */
  mark(): FileMark {
    return { bytes: this.#size + this.#used, count: this.#count };
  }

  /**
   * Takes back what was added after `m`.
   *
   * @throws Deno's errors when the file cannot be truncated.
   */
  rollback(m: FileMark): void {
    if (m.bytes >= this.#size) this.#used = m.bytes - this.#size;
    else {
      this.fs.truncateSync(this.path, m.bytes);
      this.#size = m.bytes;
      this.#used = 0;
    }
    this.#count = m.count;
  }

  /**
   * Writes the rest (an artifact of no items is an empty file).
   *
   * @returns The file's bytes and items.
   * @throws Deno's errors when the file cannot be written.
   */
  close(): { bytes: number; count: number } {
    if (this.#first || this.#used > 0) this.#flush();
    return { bytes: this.#size, count: this.#count };
  }
}
