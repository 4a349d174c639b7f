/**
 * A search answer with context written out as the scan finds it (issue #22, item 6: `log_search` with
 * `context: 10` and `limit: 5000` holds up to 105,000 lines of up to `LOGPEEK_MAX_LINE` characters; on
 * lines of 1,100 CJK characters the call peaked at 1.6 GiB over idle, then 347 MiB once its text was no
 * longer built whole).
 *
 * The scan hands each match with its final context to {@linkcode AnswerStream.take} (`read/search.ts`
 * `take`); the stream lays it out as `context_render.ts` does (`ContextBlocks`), keeps the first matches
 * (those whose lines fit in `LOGPEEK_INLINE_CHARS`, the most an answer can show inline), and once the
 * lines exceed that, writes every line to an artifact as it comes (`ArtifactStore.begin`). At the end
 * {@linkcode AnswerStream.items} gives `spill` the same items it would have been given whole, so the
 * answer is the same. Memory: the kept matches (≤ `LOGPEEK_INLINE_CHARS` characters and one block) and
 * one batch of the artifact, whatever the limit.
 *
 * @module
 */

import type { LogLine } from "../read/log_line.ts";
import type { WithContext } from "../read/context.ts";
import type { ArtifactMark, ArtifactRef, ArtifactWriter } from "../state/artifacts.ts";
import { type AnswerItem, ContextBlocks, type ContextMatch, renderItem } from "./context_render.ts";
import type { ToolContext } from "./deps.ts";
import type { ItemList } from "./spill.ts";

/** The lines of a search answer with context, taken one match at a time (see the module). */
export class AnswerStream {
  #deps: ToolContext;
  #tool: string;
  #blocks = new ContextBlocks();
  /** The first matches, whole, and their items (a prefix of all items). */
  #kept: ContextMatch[] = [];
  #keptItems: AnswerItem[] = [];
  /** For each kept match, how many items there are up to its block's end. */
  #lastItemOf: number[] = [];
  /** Every item's length plus one, over all items so far. */
  #chars = 0;
  #count = 0;
  #last = "";
  #writer: ArtifactWriter | null = null;
  #started = false;
  #failure: string | null = null;
  #mark: {
    kept: number;
    keptItems: number;
    chars: number;
    count: number;
    last: string;
    started: boolean;
    failure: string | null;
    writer: ArtifactMark | null;
    blocks: ReturnType<ContextBlocks["save"]>;
  } | null = null;

  /**
   * @param deps Limits (`inlineChars`), the artifact store (or why there is none), stderr.
   * @param tool The tool's name, recorded with the artifact.
   */
  constructor(deps: ToolContext, tool: string) {
    this.#deps = deps;
    this.#tool = tool;
  }

  /**
   * Takes the next match, in the order found.
   *
   * @param file The log it is in, in a call over a glob (a heading is shown where it changes); else undefined.
   * @param line The match.
   * @param context Its lines before and after, final.
   */
  take(file: string | undefined, line: LogLine, context: WithContext<LogLine>): void {
    const m: ContextMatch = { line, context, file };
    const block = this.#blocks.next(m);
    const keep = this.#chars <= this.#deps.limits.inlineChars;
    for (const it of block) {
      const s = renderItem(it);
      this.#chars += s.length + 1;
      this.#count++;
      this.#last = s;
      if (keep) this.#keptItems.push(it);
      else this.#add(s);
    }
    if (keep) {
      this.#kept.push(m);
      this.#lastItemOf.push(this.#keptItems.length);
    }
    if (!this.#started && this.#chars > this.#deps.limits.inlineChars) this.#start();
  }

  /** Starts the artifact with the items so far (all kept): the answer is too long to show whole. */
  #start(): void {
    this.#started = true;
    const store = this.#deps.artifacts;
    if (!store) {
      this.#failure = this.#deps.artifactsOff;
      return;
    }
    try {
      this.#writer = store.begin(this.#tool);
    } catch (e) {
      this.#fail(e);
      return;
    }
    for (const it of this.#keptItems) this.#add(renderItem(it));
  }

  #add(s: string): void {
    if (!this.#writer) return;
    try {
      this.#writer.add(s);
    } catch (e) {
      this.#fail(e);
    }
  }

  #fail(e: unknown): void {
    this.#writer?.abort();
    this.#writer = null;
    this.#failure = `the artifact could not be written: ${e instanceof Error ? e.message : e}`;
    this.#deps.stderr(`logpeek: ${this.#failure}`);
  }

  /**
   * Notes where the answer stands (a log's search begins), for {@linkcode AnswerStream.rollback}: a page
   * entered by a seek whose log went out of order is read again from the start (`read/search.ts`
   * `retake`), and the matches it handed over are then forgotten.
   */
  mark(): void {
    this.#mark = {
      kept: this.#kept.length,
      keptItems: this.#keptItems.length,
      chars: this.#chars,
      count: this.#count,
      last: this.#last,
      started: this.#started,
      failure: this.#failure,
      writer: this.#writer?.mark() ?? null,
      blocks: this.#blocks.save(),
    };
  }

  /** Forgets every match taken since the last {@linkcode AnswerStream.mark} (from the start, without one). */
  rollback(): void {
    const m = this.#mark ?? {
      kept: 0,
      keptItems: 0,
      chars: 0,
      count: 0,
      last: "",
      started: false,
      failure: null,
      writer: null,
      blocks: { prev: undefined, lastShown: undefined },
    };
    this.#kept.length = m.kept;
    this.#lastItemOf.length = m.kept;
    this.#keptItems.length = m.keptItems;
    this.#chars = m.chars;
    this.#count = m.count;
    this.#last = m.last;
    this.#blocks.restore(m.blocks);
    if (!m.started) {
      // The artifact began after the mark: none yet.
      this.abort();
      this.#started = false;
      this.#failure = m.failure;
    } else if (this.#writer && m.writer) {
      try {
        this.#writer.rollback(m.writer);
      } catch (e) {
        this.#fail(e);
      }
    }
  }

  /** The matches kept whole (the first ones), with their context and log. */
  get kept(): readonly ContextMatch[] {
    return this.#kept;
  }

  /** For each kept match, how many items there are up to the end of its block. */
  get lastItemOf(): readonly number[] {
    return this.#lastItemOf;
  }

  /**
   * Every item, for `spill`: the rendered items when they fit in `LOGPEEK_INLINE_CHARS` (nothing written);
   * otherwise an `ItemList` whose artifact is finished here (`saved`), asked only for the kept items and
   * the last. Call once, after the last `take`.
   */
  items(): readonly string[] | ItemList {
    if (!this.#started) return this.#keptItems.map(renderItem);
    let artifact: ArtifactRef | null = null;
    if (this.#writer) {
      try {
        artifact = this.#writer.finish();
      } catch (e) {
        this.#fail(e);
      }
      this.#writer = null;
    }
    const kept = this.#keptItems;
    const n = this.#count;
    const last = this.#last;
    return {
      length: n,
      item: (i) => {
        if (i < kept.length) return renderItem(kept[i]);
        if (i === n - 1) return last;
        throw new RangeError(`item ${i} of ${n} was written out, not kept`);
      },
      saved: { chars: this.#chars, artifact, failure: this.#failure },
    };
  }

  /** Removes the artifact being written (the call failed). */
  abort(): void {
    this.#writer?.abort();
    this.#writer = null;
  }
}
