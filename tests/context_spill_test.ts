/**
 * A search with context whose answer spills (issue #22, item 6: the lines are written to the artifact as
 * the scan finds them, `tools/answer_stream.ts`): the artifact holds exactly what `grep -n -C` prints, in
 * both modes, streamed (no window), held to the page's end (a window entered by a seek), and cut at the
 * limit; the matches shown inline are its first ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, type Session } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
import { sharedDir } from "./shared_dir.ts";
import { grepContext, type GrepEntry } from "./grep_context.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** Every line of an artifact, read with read_artifact 200 at a time. */
async function readAll(s: Session, id: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const r = await s.call("read_artifact", { artifact_id: id, offset, limit: 200 });
    assert.equal(r.isError, undefined, r.content[0].text);
    out.push(...r.structuredContent.lines);
    offset = r.structuredContent.next_offset;
  }
  return out;
}

/** An artifact line (`12: INFO text`, `11- INFO text`, `--`) as a grep entry: its level word left out. */
function asGrep(line: string): GrepEntry {
  if (line === "--") return "--";
  const m = /^(\d+)([:-]) (\S+) (.*)$/s.exec(line);
  assert.ok(m, `not a context line: ${line}`);
  return { no: Number(m[1]), match: m[2] === ":", text: m[4] };
}

for (const broadRead of [false, true]) {
  Deno.test({
    name:
      `e2e${broadRead ? " (worker)" : ""}: a spilled search with context saves exactly grep -n -C's lines, ` +
      "streamed, after a seek, and cut at the limit",
    ...opts,
    async fn() {
      const shared = sharedDir("a spilled search with context over a Loghub log");
      if (!shared) return;
      const dir = tempDir("logpeek-ctxspill-");
      const src = join(shared, "corpus", "loghub", "Hadoop_2k.log");
      Deno.writeTextFileSync(join(dir, "h.log"), Deno.readTextFileSync(src).replaceAll("\r\n", "\n"));
      await using s = await connect([dir], {}, [], { args: ["--no-redact"], broadRead });
      const cases: [Record<string, unknown>, number | undefined][] = [
        [{ text: "INFO", context: 2, limit: 5000 }, undefined],
        [{ text: "WARN", context: 10, limit: 5000 }, undefined],
        // A window over the whole log, entered by a seek: the page's matches are handed over at its end.
        [{
          text: "INFO",
          context: 3,
          limit: 5000,
          since: "2015-01-01T00:00:00Z",
          until: "2016-01-01T00:00:00Z",
        }, undefined],
        [{ text: "INFO", context: 2, limit: 300 }, 300],
      ];
      for (const [args, max] of cases) {
        const r = await s.call("log_search", { file: "h.log", ...args });
        const sc = r.structuredContent;
        assert.equal(r.isError, undefined, r.content[0].text);
        assert.ok(sc.artifact, `${JSON.stringify(args)}: spilled`);
        const saved = (await readAll(s, sc.artifact.artifact_id)).map(asGrep);
        const truth = upToMatch(
          grepContext(join(dir, "h.log"), args.text as string, args.context as number),
          max,
        );
        assert.equal(saved.length, truth.length, JSON.stringify(args));
        assert.deepEqual(saved, truth, JSON.stringify(args));
        assert.equal(sc.artifact.total_lines, truth.length);
        // The matches shown inline: the first of grep's, each with its context.
        const shown = sc.matches.flatMap((m: Shown) => [
          ...m.before.map((b) => `${b.line_no}-${b.text}`),
          `${m.line_no}:${m.text}`,
          ...m.after.map((a) => `${a.line_no}-${a.text}`),
        ]);
        const lines = truth.filter((t) => t !== "--").map((t) => `${t.no}${t.match ? ":" : "-"}${t.text}`);
        assert.ok(sc.matches.length > 0);
        assert.deepEqual(shown, lines.slice(0, shown.length), JSON.stringify(args));
        assert.equal(sc.complete, max === undefined, JSON.stringify(args));
      }
      // A window entered by a seek (line numbers unknown): the page's matches are handed over at its end;
      // the artifact holds what the same call shows whole when nothing spills.
      await using whole = await connect([dir], { LOGPEEK_INLINE_CHARS: "100000000" }, [], {
        args: ["--no-redact"],
        broadRead,
      });
      // 200,000 timestamped lines (12 MB), a match every 7th: over SMALL_LOG_BYTES, so the window seeks.
      const t0 = Date.UTC(2024, 4, 1);
      Deno.writeTextFileSync(
        join(dir, "t.log"),
        Array.from(
          { length: 200_000 },
          (_, i) =>
            `${new Date(t0 + i * 1000).toISOString()} ${
              i % 7 ? "DEBUG tick" : "ERROR HIT"
            } ${i} padding padding\n`,
        ).join(""),
      );
      const since = new Date(t0 + 150_000 * 1000).toISOString();
      const args = { file: "t.log", text: "HIT", context: 2, limit: 5000, since };
      const r = (await s.call("log_search", args)).structuredContent;
      const w = (await whole.call("log_search", args)).structuredContent;
      assert.equal(w.artifact, undefined);
      assert.equal(w.matches[0].line_no, null, "entered by a seek");
      const flat = w.matches.flatMap((m: Shown) => [
        ...m.before.map((b) => `-${b.text}`),
        `:${m.text}`,
        ...m.after.map((a) => `-${a.text}`),
      ]);
      const saved = (await readAll(s, r.artifact.artifact_id)).filter((l) => l !== "--").map((l) => {
        const m = /^\?([:-]) \S+ (.*)$/s.exec(l);
        assert.ok(m, l);
        return `${m[1]}${m[2]}`;
      });
      assert.ok(flat.length > 1000);
      assert.deepEqual(saved, flat);
    },
  });
}

for (const broadRead of [false, true]) {
  Deno.test({
    name:
      `e2e${broadRead ? " (worker)" : ""}: a seek whose log is out of order reads again from the start, ` +
      "and the spilled answer with context holds each of grep -n -C's lines once",
    ...opts,
    async fn() {
      const dir = tempDir("logpeek-ctxorder-");
      // 200,000 timestamped lines (12 MB: over SMALL_LOG_BYTES, so the window seeks); HIT every 7th line
      // from line 150,001 on, the window's start; 30,000 lines later one line whose time goes back an hour,
      // which the page entered by the seek finds only after handing over ~4,000 matches.
      const t0 = Date.UTC(2024, 4, 1);
      const lines = Array.from({ length: 200_000 }, (_, i) => {
        const back = i === 180_000 ? 3_600_000 : 0;
        const what = i >= 150_000 && i % 7 === 0 ? "ERROR HIT" : "DEBUG tick";
        return `${new Date(t0 + i * 1000 - back).toISOString()} ${what} ${i} padding padding\n`;
      });
      Deno.writeTextFileSync(join(dir, "o.log"), lines.join(""));
      await using s = await connect([dir], {}, [], { args: ["--no-redact"], broadRead });
      const since = new Date(t0 + 150_000 * 1000).toISOString();
      const r = await s.call("log_search", { file: "o.log", text: "HIT", context: 2, limit: 5000, since });
      const sc = r.structuredContent;
      assert.equal(r.isError, undefined, r.content[0].text);
      assert.equal(
        sc.matches[0].line_no,
        150_004,
        "read again from the start: line numbers known (i = 150,003)",
      );
      const saved = (await readAll(s, sc.artifact.artifact_id)).map(asGrep);
      // 7,143 lines hold HIT: the page stops at the 5,000th.
      const truth = upToMatch(grepContext(join(dir, "o.log"), "HIT", 2), 5000);
      assert.equal(saved.length, truth.length);
      assert.deepEqual(saved, truth);
      assert.equal(sc.stop_reason, "limit", r.content[0].text);
    },
  });
}

/**
 * `grep -C`'s entries up to the `max`th match and the context lines after it (not `grep -m`'s: grep shows
 * the matches among the last match's after-lines as context; a page of logpeek ends its after-lines at
 * the next match, which the next page starts with).
 */
function upToMatch(entries: GrepEntry[], max: number | undefined): GrepEntry[] {
  if (max === undefined) return entries;
  let seen = 0;
  let end = entries.length;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e !== "--" && e.match && ++seen === max) {
      end = i + 1;
      while (end < entries.length && entries[end] !== "--" && !(entries[end] as { match: boolean }).match) {
        end++;
      }
      break;
    }
  }
  return entries.slice(0, end);
}

/** A match of a structured answer, with its context. */
interface Shown {
  line_no: number;
  text: string;
  before: { line_no: number; text: string }[];
  after: { line_no: number; text: string }[];
}
