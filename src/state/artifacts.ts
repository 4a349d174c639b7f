/**
 * Spilled results: when an answer is too long for a model's context, the whole of it is saved as an
 * artifact under `<state>/artifacts/` and read back a page at a time with `read_artifact` (issue #3;
 * the seed `../shared/seeds/004_…`, "大输出落盘").
 *
 * An artifact is `<id>.txt` (one item a line) and `<id>.json` (`{tool, total_lines, created_ms}`).
 * Artifacts expire after `LOGPEEK_ARTIFACT_TTL_S` and all of them together stay under
 * `LOGPEEK_ARTIFACT_MAX_BYTES`, oldest removed first; both are enforced at start and whenever one is
 * written, over the artifacts of every server sharing the folder ({@linkcode CHANGES_FILE} tells each
 * that another has changed it). Ids are the server's own (`a` + 24 hex digits): nothing else is ever
 * opened, so `read_artifact` cannot read outside the artifacts directory.
 *
 * Permission: read and write access to the state directory.
 *
 * @module
 */

import { join } from "node:path";
import { ToolError } from "../core/errors.ts";
import { cutText } from "../core/text_cut.ts";
import { printable } from "../guard/printable.ts";
import { scan } from "../read/scanner.ts";
import { ArtifactFile } from "./artifact_file.ts";

/** The form of an artifact id. */
export const ARTIFACT_ID = /^a[0-9a-f]{24}$/;

/** A saved artifact. */
export interface ArtifactRef {
  artifact_id: string;
  total_lines: number;
}

/** One page of an artifact. */
export interface ArtifactPage {
  lines: string[];
  total_lines: number;
  /** Where the next page starts; null at the end. */
  next_offset: number | null;
}

interface Meta {
  tool: string;
  total_lines: number;
  created_ms: number;
}

/** One artifact the store knows of. */
interface Entry {
  id: string;
  created: number;
  bytes: number;
}

/**
 * An artifact being written ({@linkcode ArtifactStore.begin}): `add` each item in order (a line feed inside
 * one is written as a space; memory: one buffer of {@linkcode WRITE_BATCH_BYTES}), then `finish` (indexes it
 * and keeps the cap: its id and line count), or `abort` (removes what was written).
 */
export interface ArtifactWriter {
  add(line: string): void;
  /** Where the artifact stands now, for `rollback`. */
  mark(): ArtifactMark;
  /** Forgets the items added since `m` (the file is cut back to its size then). */
  rollback(m: ArtifactMark): void;
  finish(): ArtifactRef;
  abort(): void;
}

/** A point of an {@linkcode ArtifactWriter}: its bytes (written and buffered) and items then. */
export interface ArtifactMark {
  bytes: number;
  count: number;
}

/**
 * The file-system calls the store makes, so a test can count them (`Deno` itself by default).
 * Permission: read and write access to the artifacts directory.
 */
export type ArtifactFs = Pick<
  typeof Deno,
  | "readDirSync"
  | "readTextFileSync"
  | "lstatSync"
  | "removeSync"
  | "writeFileSync"
  | "renameSync"
  | "truncateSync"
>;

/**
 * The change counter: one byte is appended for each save, sweep or removal, by every server using the
 * folder. Its identity and size tell a server whether another one changed the folder since its own last
 * change (several servers of one user share the default state directory).
 */
export const CHANGES_FILE = ".changes";
/** {@linkcode ArtifactStore.write} encodes its items into a buffer of this many bytes (1 MiB), written when full. */
export { WRITE_BATCH_BYTES } from "./artifact_file.ts";
/** The change counter is replaced by an empty one when it reaches this size, in bytes. */
const CHANGES_MAX_BYTES = 65536;
const ONE_BYTE = new Uint8Array([0x2b]);
const META_NAME = /^(a[0-9a-f]{24})\.json$/;

/**
 * The artifacts directory, its expiry and its size cap.
 *
 * Cost: the metadata of every artifact is read once, at the first sweep (a server's start); after
 * that the store keeps an index (id, creation time, bytes; about 100 bytes an artifact) and a save
 * touches only its own two files, the change counter and the artifacts it removes, whatever the number
 * stored (issue #10, item 14: each save used to read all metadata, 107 ms with 3,000 artifacts). When
 * another server changed the folder (the change counter says so), the next save lists the folder again
 * and reads only the metadata it does not know yet.
 */
export class ArtifactStore {
  /** Known artifacts, oldest first from `#head` on; null until the first scan. */
  #entries: Entry[] | null = null;
  #head = 0;
  #byId = new Map<string, Entry>();
  #total = 0;
  /** The change counter's `ino:size` after this store's own last change ("" when unknown). */
  #seen = "";

  /**
   * @param dir The artifacts directory (`<state>/artifacts`).
   * @param ttlMs How long an artifact lives, in ms.
   * @param maxBytes The most bytes all artifacts may take.
   * @param now The clock, in ms since the epoch (tests move it).
   * @param fs The file-system calls (tests count them).
   */
  constructor(
    readonly dir: string,
    readonly ttlMs: number,
    readonly maxBytes: number,
    readonly now: () => number = Date.now,
    readonly fs: ArtifactFs = Deno,
  ) {}

  /**
   * Lists the folder and removes expired artifacts, then the oldest ones while all of them exceed the
   * size cap. Reads the metadata of artifacts not yet known (all of them the first time).
   *
   * @returns How many artifacts were removed.
   */
  sweep(): number {
    const before = this.#stamp();
    this.#scan();
    const removed = this.#evict();
    // Nothing removed is no change: nothing is written (a server's start leaves an empty folder as it was).
    if (removed) this.#noteChange(before);
    else this.#seen = before;
    return removed;
  }

  /** The change counter's identity and size, `ino:size` ("0:0" when absent). */
  #stamp(): string {
    try {
      const st = this.fs.lstatSync(join(this.dir, CHANGES_FILE));
      return `${st.ino ?? 0}:${st.size}`;
    } catch {
      return "0:0";
    }
  }

  /**
   * Appends this store's change to the counter and remembers the result, or forgets it ("") when
   * another server's change came in between (`before` is the stamp taken before this change).
   */
  #noteChange(before: string): void {
    const path = join(this.dir, CHANGES_FILE);
    const [ino, size] = before.split(":").map(Number);
    let expect: string;
    try {
      if (size >= CHANGES_MAX_BYTES) {
        const tmp = join(this.dir, `${CHANGES_FILE}.${crypto.randomUUID()}`);
        this.fs.writeFileSync(tmp, ONE_BYTE, { mode: 0o600, createNew: true });
        this.fs.renameSync(tmp, path);
        expect = ":1";
      } else {
        this.fs.writeFileSync(path, ONE_BYTE, { append: true, mode: 0o600 });
        expect = size === 0 ? ":1" : `${ino}:${size + 1}`;
      }
    } catch {
      this.#seen = "";
      return;
    }
    const now = this.#stamp();
    this.#seen = (expect.startsWith(":") ? now.endsWith(expect) : now === expect) ? now : "";
  }

  /** Lists the folder: keeps known artifacts still there, reads the metadata of new ones. */
  #scan(): void {
    const entries: Entry[] = [];
    const byId = new Map<string, Entry>();
    for (const e of this.fs.readDirSync(this.dir)) {
      const m = META_NAME.exec(e.name);
      if (!m) continue;
      let entry = this.#byId.get(m[1]);
      if (!entry) {
        try {
          const meta = JSON.parse(this.fs.readTextFileSync(join(this.dir, e.name))) as Meta;
          const bytes = this.fs.lstatSync(join(this.dir, `${m[1]}.txt`)).size;
          entry = { id: m[1], created: Number(meta.created_ms) || 0, bytes };
        } catch {
          entry = { id: m[1], created: 0, bytes: 0 }; // half-written or damaged: removed below
        }
      }
      entries.push(entry);
      byId.set(entry.id, entry);
    }
    entries.sort((a, b) => a.created - b.created);
    this.#entries = entries;
    this.#head = 0;
    this.#byId = byId;
    this.#total = entries.reduce((n, i) => n + i.bytes, 0);
  }

  /**
   * Removes the oldest artifacts while the oldest has expired or all exceed the size cap. Oldest first
   * means the expired ones come first, so this stops at the first artifact it keeps.
   */
  #evict(): number {
    const entries = this.#entries!;
    const now = this.now();
    let removed = 0;
    while (this.#head < entries.length) {
      const item = entries[this.#head];
      if (now - item.created <= this.ttlMs && this.#total <= this.maxBytes) break;
      this.#remove(item.id);
      this.#byId.delete(item.id);
      this.#total -= item.bytes;
      this.#head++;
      removed++;
    }
    if (this.#head > 1024 && this.#head * 2 > entries.length) {
      this.#entries = entries.slice(this.#head);
      this.#head = 0;
    }
    return removed;
  }

  #remove(id: string): void {
    for (const ext of [".json", ".txt"]) {
      try {
        this.fs.removeSync(join(this.dir, id + ext));
      } catch {
        // already gone
      }
    }
  }

  /**
   * Saves `lines` as a new artifact, then removes expired artifacts and the oldest while all of them
   * exceed the size cap. Its cost does not depend on how many are stored (see the class).
   *
   * Memory: the items are taken one at a time and written in batches of about
   * {@linkcode WRITE_BATCH_BYTES} bytes, so a caller that makes each item when it is asked for (a
   * generator) never holds them all (issue #22: a search with context held its answer six times over here).
   *
   * @param tool The tool whose result this is.
   * @param lines The items, one a line (a line feed inside one is written as a space), in order.
   * @returns The new artifact's id and line count.
   * @throws Deno's errors when it cannot be written (the part written is removed).
   */
  write(tool: string, lines: Iterable<string>): ArtifactRef {
    const w = this.begin(tool);
    try {
      for (const l of lines) w.add(l);
    } catch (e) {
      w.abort();
      throw e;
    }
    return w.finish();
  }

  /**
   * Starts a new artifact whose items are added one at a time ({@linkcode ArtifactWriter}): what
   * {@linkcode ArtifactStore.write} does, for a caller that makes its items over time (a search writes
   * its answer's lines as it finds them, issue #22). Nothing is in the index, and no other server sees
   * it, until `finish`.
   *
   * @param tool The tool whose result this is.
   * @returns The writer. Its `add` and `finish` throw Deno's errors when the file cannot be written;
   *   call `abort` then (the part written is removed).
   */
  begin(tool: string): ArtifactWriter {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const id = "a" + Array.from(bytes.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
    const file = new ArtifactFile(join(this.dir, `${id}.txt`), this.fs);
    const finish = (): ArtifactRef => {
      let written;
      try {
        written = file.close();
      } catch (e) {
        this.#remove(id);
        throw e;
      }
      const before = this.#stamp();
      if (this.#entries === null || before !== this.#seen) this.#scan();
      const meta: Meta = { tool, total_lines: written.count, created_ms: this.now() };
      this.fs.writeFileSync(join(this.dir, `${id}.json`), new TextEncoder().encode(JSON.stringify(meta)), {
        mode: 0o600,
      });
      this.#add({ id, created: meta.created_ms, bytes: written.bytes });
      this.#evict();
      this.#noteChange(before);
      return { artifact_id: id, total_lines: written.count };
    };
    return {
      add: (l) => file.add(l),
      mark: () => file.mark(),
      rollback: (m) => file.rollback(m),
      finish,
      abort: () => this.#remove(id),
    };
  }

  /** Adds a new artifact to the index, in creation order (at the end unless the clock went back). */
  #add(entry: Entry): void {
    const entries = this.#entries!;
    let at = entries.length;
    while (at > this.#head && entries[at - 1].created > entry.created) at--;
    entries.splice(at, 0, entry);
    this.#byId.set(entry.id, entry);
    this.#total += entry.bytes;
  }

  /**
   * Reads one page of an artifact. Memory: one piece plus the page, whatever the artifact's size.
   *
   * @param id The artifact id.
   * @param offset The first line to return (0-based).
   * @param limit The most lines to return.
   * @throws {ToolError} `invalid_artifact_id` or `artifact_not_found` (unknown, expired, removed).
   */
  async read(id: string, offset: number, limit: number): Promise<ArtifactPage> {
    if (!ARTIFACT_ID.test(id)) {
      throw new ToolError(
        "invalid_artifact_id",
        `'${
          printable(cutText(id, 40))
        }' is not an artifact id of this server (they look like a0123456789abcdef01234567)`,
      );
    }
    let meta: Meta;
    let file: Deno.FsFile;
    try {
      meta = JSON.parse(this.fs.readTextFileSync(join(this.dir, `${id}.json`))) as Meta;
      file = Deno.openSync(join(this.dir, `${id}.txt`), { read: true });
    } catch {
      throw new ToolError(
        "artifact_not_found",
        `artifact ${id} does not exist: it expired (artifacts live ${
          this.ttlMs / 1000
        } s), was removed to keep ` +
          "the size cap, or was never made here; call the original tool again",
      );
    }
    if (meta.tool.startsWith(STATE_PREFIX)) {
      file.close();
      throw new ToolError("artifact_not_found", `artifact ${id} does not exist: it is no result of a tool`);
    }
    if (this.now() - meta.created_ms > this.ttlMs) {
      file.close();
      const before = this.#stamp();
      const current = before === this.#seen;
      this.#remove(id); // stays in the index until the next save evicts it (it is among the oldest)
      this.#noteChange(before);
      if (!current) this.#seen = ""; // another server's change came first: the next save lists the folder
      throw new ToolError("artifact_not_found", `artifact ${id} expired; call the original tool again`);
    }
    const lines = await pageOf(file, offset, limit);
    const next = offset + lines.length;
    return { lines, total_lines: meta.total_lines, next_offset: next < meta.total_lines ? next : null };
  }

  /**
   * Saves a tool's working state (a resumed `log_patterns` call's miner, issue #13) as an artifact that
   * `read_artifact` refuses: it expires and counts toward the size cap as any artifact does.
   *
   * @param tool The tool whose state it is.
   * @param json The state: one line of JSON, or several lines (each without a line feed), which
   *   {@linkcode ArtifactStore.readState} gives back joined by line feeds.
   * @returns The id to give {@linkcode ArtifactStore.readState}.
   * @throws Deno's errors when it cannot be written.
   */
  writeState(tool: string, json: string | string[]): string {
    return this.write(STATE_PREFIX + tool, typeof json === "string" ? [json] : json).artifact_id;
  }

  /**
   * A state {@linkcode ArtifactStore.writeState} saved.
   *
   * @param tool The tool whose state it must be.
   * @param id Its id.
   * @returns The JSON text.
   * @throws {ToolError} `artifact_not_found` when it is unknown, expired, removed, or another tool's.
   */
  readState(tool: string, id: string): string {
    return readStateFile(this, tool, id);
  }
}

/** The `tool` of a saved state's metadata starts with this: `read_artifact` never returns such a file. */
const STATE_PREFIX = "state:";

/** {@linkcode ArtifactStore.readState}: the text of a saved state, checked to be `tool`'s and alive. */
function readStateFile(store: ArtifactStore, tool: string, id: string): string {
  const gone = () =>
    new ToolError(
      "artifact_not_found",
      `the saved state of this call (${id}) is gone: it expired (artifacts live ${
        store.ttlMs / 1000
      } s) or ` +
        "was removed to keep the size cap; call again without cursor",
    );
  if (!ARTIFACT_ID.test(id)) throw gone();
  let meta: Meta;
  let text: string;
  try {
    meta = JSON.parse(store.fs.readTextFileSync(join(store.dir, `${id}.json`))) as Meta;
    text = store.fs.readTextFileSync(join(store.dir, `${id}.txt`));
  } catch {
    throw gone();
  }
  if (meta.tool !== STATE_PREFIX + tool || store.now() - meta.created_ms > store.ttlMs) throw gone();
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/**
 * The lines `offset` (0-based) to `offset + limit` of an artifact's open file, which it closes.
 * Memory: one piece plus the page.
 */
async function pageOf(file: Deno.FsFile, offset: number, limit: number): Promise<string[]> {
  const lines: string[] = [];
  const dec = new TextDecoder();
  try {
    await scan({ readSync: (b) => file.readSync(b), atEnd: () => true }, {
      line(buf, s, e, no) {
        if (no <= offset) return true;
        lines.push(dec.decode(buf.subarray(s, e)));
        return lines.length < limit;
      },
    }, { headBytes: 65536 });
  } finally {
    file.close();
  }
  return lines;
}
