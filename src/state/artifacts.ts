/**
 * Spilled results: when an answer is too long for a model's context, the whole of it is saved as an
 * artifact under `<state>/artifacts/` and read back a page at a time with `read_artifact` (issue #3;
 * the seed `../shared/seeds/004_…`, "大输出落盘").
 *
 * An artifact is `<id>.txt` (one item a line) and `<id>.json` (`{tool, total_lines, created_ms}`).
 * Artifacts expire after `LOGPEEK_ARTIFACT_TTL_S` and all of them together stay under
 * `LOGPEEK_ARTIFACT_MAX_BYTES`, oldest removed first; both are enforced at start and whenever one is
 * written. Ids are the server's own (`a` + 24 hex digits): nothing else is ever opened, so
 * `read_artifact` cannot read outside the artifacts directory.
 *
 * Permission: read and write access to the state directory.
 *
 * @module
 */

import { join } from "node:path";
import { ToolError } from "../core/errors.ts";
import { scan } from "../read/scanner.ts";

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

/** The artifacts directory, its expiry and its size cap. */
export class ArtifactStore {
  /**
   * @param dir The artifacts directory (`<state>/artifacts`).
   * @param ttlMs How long an artifact lives, in ms.
   * @param maxBytes The most bytes all artifacts may take.
   * @param now The clock, in ms since the epoch (tests move it).
   */
  constructor(
    readonly dir: string,
    readonly ttlMs: number,
    readonly maxBytes: number,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Removes expired artifacts, then the oldest ones while all of them exceed the size cap.
   *
   * @returns How many artifacts were removed.
   */
  sweep(): number {
    const now = this.now();
    const items: { id: string; created: number; bytes: number }[] = [];
    for (const e of Deno.readDirSync(this.dir)) {
      const m = /^(a[0-9a-f]{24})\.json$/.exec(e.name);
      if (!m) continue;
      try {
        const meta = JSON.parse(Deno.readTextFileSync(join(this.dir, e.name))) as Meta;
        const bytes = Deno.statSync(join(this.dir, `${m[1]}.txt`)).size;
        items.push({ id: m[1], created: meta.created_ms, bytes });
      } catch {
        items.push({ id: m[1], created: 0, bytes: 0 }); // half-written or damaged: removed below
      }
    }
    items.sort((a, b) => a.created - b.created);
    let total = items.reduce((n, i) => n + i.bytes, 0);
    let removed = 0;
    for (const item of items) {
      if (now - item.created <= this.ttlMs && total <= this.maxBytes) continue;
      this.#remove(item.id);
      total -= item.bytes;
      removed++;
    }
    return removed;
  }

  #remove(id: string): void {
    for (const ext of [".json", ".txt"]) {
      try {
        Deno.removeSync(join(this.dir, id + ext));
      } catch {
        // already gone
      }
    }
  }

  /**
   * Saves `lines` as a new artifact, then sweeps.
   *
   * @param tool The tool whose result this is.
   * @param lines The items, one a line (no line feeds inside).
   * @returns The new artifact's id and line count.
   * @throws Deno's errors when it cannot be written.
   */
  write(tool: string, lines: string[]): ArtifactRef {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const id = "a" + Array.from(bytes.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
    const body = lines.map((l) => l.replaceAll("\n", " ") + "\n").join("");
    Deno.writeTextFileSync(join(this.dir, `${id}.txt`), body, { mode: 0o600 });
    const meta: Meta = { tool, total_lines: lines.length, created_ms: this.now() };
    Deno.writeTextFileSync(join(this.dir, `${id}.json`), JSON.stringify(meta), { mode: 0o600 });
    this.sweep();
    return { artifact_id: id, total_lines: lines.length };
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
          id.slice(0, 40)
        }' is not an artifact id of this server (they look like a0123456789abcdef01234567)`,
      );
    }
    let meta: Meta;
    let file: Deno.FsFile;
    try {
      meta = JSON.parse(Deno.readTextFileSync(join(this.dir, `${id}.json`))) as Meta;
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
    if (this.now() - meta.created_ms > this.ttlMs) {
      file.close();
      this.#remove(id);
      throw new ToolError("artifact_not_found", `artifact ${id} expired; call the original tool again`);
    }
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
    const next = offset + lines.length;
    return { lines, total_lines: meta.total_lines, next_offset: next < meta.total_lines ? next : null };
  }
}
