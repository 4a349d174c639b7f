/**
 * `log_patterns` with a baseline, end to end through the MCP client:
 * - issue #22 item 2: a baseline comparison only over a baseline read. The fuzzer's repro (`file` and
 *   `baseline_file` the same log of distinct lines, a budget that runs out before the baseline is mined)
 *   said `change: "new"`, `baseline_count: 0` for every template. Now no page before both sides are read
 *   has a change, each says which side is missing or partly read, and its cursor followed to the end
 *   gives the answer of one call without a budget. (Stops in each phase, exactly, are in
 *   `src/tools/log_patterns_test.ts`, with a clock that counts its reads.)
 * - issue #24: both sides of a comparison cover the same kind of span — each up to its `until`, capped
 *   at now (no `until`: now) — and a shorter side says why; rates checked against counts and instants
 *   this test computes from the lines it writes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, type Session } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const WHOLE = { LOGPEEK_INLINE_CHARS: "100000000" };
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

// deno-lint-ignore no-explicit-any
type Sc = any;

/** `wc -l` of a file (every line written here ends with a line feed). */
function wcLines(path: string): number {
  const out = new Deno.Command("wc", { args: ["-l", path], stdout: "piped" }).outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim().split(/\s+/)[0]);
}

/** A `log_patterns` call that must succeed: its structured answer and text. */
async function patterns(s: Session, args: Record<string, unknown>): Promise<{ sc: Sc; text: string }> {
  const r = await s.call("log_patterns", args);
  assert.equal(r.isError, undefined, `${JSON.stringify(args)}: ${r.content[0].text.slice(0, 500)}`);
  return { sc: r.structuredContent, text: r.content[0].text };
}

/** Every key of `value` is a property the JSON schema `schema` lists (recursively), every enum value one of its. */
// deno-lint-ignore no-explicit-any
function withinSchema(value: any, schema: any, at: string): void {
  if (schema?.enum) assert.ok(schema.enum.includes(value), `${at}: ${value} not in ${schema.enum}`);
  if (Array.isArray(value)) value.forEach((v, i) => withinSchema(v, schema?.items, `${at}[${i}]`));
  else if (value !== null && typeof value === "object") {
    const extra = schema?.additionalProperties;
    if (extra && typeof extra === "object") {
      for (const [k, v] of Object.entries(value)) withinSchema(v, extra, `${at}.${k}`);
      return;
    }
    const props = schema?.properties ?? schema?.anyOf?.find((x: Sc) => x.properties)?.properties;
    assert.ok(props, `${at}: an object where the schema has none`);
    for (const [k, v] of Object.entries(value)) {
      assert.ok(k in props, `${at}.${k} is not in the outputSchema`);
      withinSchema(v, props[k], `${at}.${k}`);
    }
  }
}

/** Every template of an answer: those its artifact holds (all of them, in order), or those it lists. */
async function allTemplates(s: Session, sc: Sc): Promise<Sc[]> {
  if (!sc.artifact) return sc.templates;
  const all: Sc[] = [];
  // A page holds as many lines as fit within LOGPEEK_INLINE_CHARS (issue #24): follow next_offset.
  for (let offset: number | null = 0; offset !== null;) {
    const r = await s.call("read_artifact", { artifact_id: sc.artifact.artifact_id, offset, limit: 200 });
    all.push(...r.structuredContent.lines.map((l: string) => JSON.parse(l)));
    offset = r.structuredContent.next_offset;
  }
  assert.equal(all.length, sc.artifact.total_lines);
  return all;
}

Deno.test({
  name:
    "e2e: log_patterns with a baseline stopped by LOGPEEK_PATTERNS_MS gives no change before both sides are read",
  ...opts,
  async fn() {
    // The fuzzer's repro, smaller: one log of distinct lines as both sides.
    const dir = tempDir("logpeek-baseline-read-");
    const n = 4000;
    let text = "";
    const t0 = Date.UTC(2024, 4, 1);
    for (let i = 0; i < n; i++) {
      text += `${iso(t0 + i * 100)} INFO k${i.toString(36)} v${(i * 7919 % 100003).toString(36)} x${
        i % 13
      }\n`;
    }
    Deno.writeTextFileSync(join(dir, "d.log"), text);
    assert.equal(wcLines(join(dir, "d.log")), n);
    const args = { file: "d.log", baseline_file: "d.log", limit: 30 };
    let uncut: Sc, uncutAll: Sc[];
    {
      await using whole = await connect([dir]);
      uncut = (await patterns(whole, args)).sc;
      uncutAll = await allTemplates(whole, uncut);
    }
    assert.deepEqual([uncut.complete, uncut.total_lines, uncut.baseline.total_lines], [true, n, n]);
    assert.ok(uncut.templates.every((t: Sc) => typeof t.change === "string"), "every template compared");
    // A faster miner (or machine) may mine a side within one page: a smaller budget then.
    for (const ms of ["100", "20", "5"]) {
      await using s = await connect([dir], { LOGPEEK_PATTERNS_MS: ms });
      const { phases, last } = await followPages(s, args, n);
      if (!(phases.has("window") && phases.has("baseline"))) {
        console.error(
          `LOGPEEK_PATTERNS_MS=${ms} stopped only in ${[...phases]}: again with a smaller budget`,
        );
        continue;
      }
      assert.equal(last?.complete, true, "the cursor finished both sides");
      assert.deepEqual(last.comparison, { given: true, window: "whole", baseline: "whole" });
      assert.deepEqual(uncut.comparison, { given: true, window: "whole", baseline: "whole" });
      assert.deepEqual(last.templates, uncut.templates, "the paged answer is the uncut one");
      assert.deepEqual(last.baseline, uncut.baseline);
      // Every template (the artifact holds them all) is the uncut call's; both sides' lines, each counted
      // once: under a template, or in other_lines.
      const all = await allTemplates(s, last);
      assert.deepEqual(all, uncutAll, "every template of the paged answer is the uncut one's");
      const sum = (k: string) => all.reduce((a: number, t: Sc) => a + t[k], 0);
      assert.equal(sum("count") + last.other_lines, n);
      assert.equal(sum("baseline_count") + last.baseline.other_lines, n);
      return;
    }
    throw new Error("no budget stopped a page in the window and one in the baseline");
  },
});

/**
 * Follows a call's cursors to its end; checks that no page before it gives a change, and that each says
 * which side is missing. The phases met (from each page's counts against the log's `n` lines), the last page.
 */
async function followPages(
  s: Session,
  args: Record<string, unknown>,
  n: number,
): Promise<{ phases: Set<string>; last: Sc }> {
  const { tools } = await s.client.listTools();
  const schema = tools.find((t: { name: string }) => t.name === "log_patterns")!.outputSchema;
  const phases = new Set<string>();
  let cursor: string | undefined;
  let last: Sc = null;
  for (let page = 0; page < 400; page++) {
    const { sc, text } = await patterns(s, { ...args, ...(cursor ? { cursor } : {}) });
    withinSchema(sc, schema, "structuredContent");
    if (!sc.progress) continue; // mined nothing in its budget (a slow start): the same call again
    last = sc;
    if (sc.complete) break;
    // The page's phase from its counts against wc's: the window's lines, or the baseline's.
    const phase = sc.total_lines < n ? "window" : sc.baseline.total_lines === 0 ? "between" : "baseline";
    phases.add(phase);
    const what = `page ${page} (${phase}, ${sc.total_lines} + ${sc.baseline.total_lines} lines)`;
    for (const t of sc.templates) {
      assert.equal(t.change, undefined, `${what}: ${t.template} ${t.change}`);
      assert.equal(t.rate_ratio, undefined, what);
      if (phase !== "baseline") assert.equal(t.baseline_count, undefined, `${what}: baseline_count`);
    }
    assert.deepEqual(sc.comparison, {
      given: false,
      window: phase === "window" ? "partly_read" : "whole",
      baseline: phase === "baseline" ? "partly_read" : "not_read",
    }, what);
    assert.equal(sc.baseline.complete, false, what);
    assert.equal(sc.rate_basis, undefined, what);
    assert.match(text, /\nNo change is given: a change needs both sides read in full, and the window is /);
    assert.doesNotMatch(text, /\[(new|gone|up|down|same)\b/, what);
    assert.match(sc.next_cursor, /~/, what);
    cursor = sc.next_cursor;
  }
  return { phases, last };
}

/** `n` heartbeat lines from `from` (epoch ms), one every `stepMs`; their instants. */
function beats(from: number, n: number, stepMs: number): number[] {
  return Array.from({ length: n }, (_, i) => from + i * stepMs);
}

const beatLine = (t: number) => `${iso(t).replace(".000", "")} INFO svc: heartbeat ok from worker pool\n`;

Deno.test({
  name:
    "e2e: log_patterns baseline rates: a window without until runs to now, as a baseline runs to its until",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-baseline-span-");
    // Issue #24's numbers: 600 lines in the baseline's hour; 774 lines in the window's hour so far, the
    // last at 0.825 h (a quiet log since). Its rate is 774 per hour against 600: 1.29, not 774/0.825/600.
    const T = Math.floor(Date.now() / 1000) * 1000;
    const base = beats(T - 2 * H, 600, 6000);
    const win = beats(T - H, 774, 3837);
    Deno.writeTextFileSync(join(dir, "app.log"), [...base, ...win].map(beatLine).join(""));
    // A baseline log that begins half an hour into its window.
    const late = beats(T - 1.5 * H, 300, 6000);
    Deno.writeTextFileSync(join(dir, "late.log"), late.map(beatLine).join(""));
    await using s = await connect([dir], WHOLE);
    const inside = (ts: number[], since: number, until = Infinity) =>
      ts.filter((t) => t >= since && t < until).length;
    const call = async (args: Record<string, unknown>) => {
      const before = Date.now();
      const r = await patterns(s, { file: "app.log", ...args });
      return { ...r, before, after: Date.now() };
    };
    // The window has no until: it runs to now.
    const a = await call({ since: iso(T - H), baseline_since: iso(T - 2 * H), baseline_until: iso(T - H) });
    const [t] = a.sc.templates;
    assert.equal(a.sc.templates.length, 1, a.text);
    assert.deepEqual([t.count, t.baseline_count], [inside(win, T - H), inside(base, T - 2 * H, T - H)]);
    assert.deepEqual([t.count, t.baseline_count], [774, 600]);
    const hoursTo = (end: number) => (end - (T - H)) / H;
    assert.equal(a.sc.baseline.hours, 1);
    assert.ok(
      a.sc.window_hours >= hoursTo(a.before) - 0.001 && a.sc.window_hours <= hoursTo(a.after) + 0.001,
      `window_hours ${a.sc.window_hours}, not to now (${hoursTo(a.before)})`,
    );
    const ratio = (n: number, h: number, nb: number, hb: number) => n / h / (nb / hb);
    assert.ok(
      t.rate_ratio <= ratio(774, hoursTo(a.before), 600, 1) + 0.001 &&
        t.rate_ratio >= ratio(774, hoursTo(a.after), 600, 1) - 0.001,
      `rate_ratio ${t.rate_ratio} (the window cut at its last line gives 1.563)`,
    );
    assert.equal(t.change, "same");
    assert.doesNotMatch(a.text, /The sides differ in length/, "about equal sides: no note");
    // A baseline log that began inside its window: the baseline covers 0.5 h, and says why.
    const b = await call({
      since: iso(T - H),
      baseline_file: "late.log",
      baseline_since: iso(T - 2 * H),
      baseline_until: iso(T - H),
    });
    assert.equal(b.sc.baseline.hours, 0.5);
    assert.equal(b.sc.templates[0].baseline_count, inside(late, T - 2 * H, T - H));
    assert.match(
      b.text,
      new RegExp(
        "\\nThe sides differ in length \\(rates are per hour of each; the baseline is shorter\\): the window " +
          `covers 1(\\.\\d+)? h, from its since \\(${
            iso(T - H).replace(".000", "")
          }\\) to now \\(.*\\); the ` +
          `baseline covers 0\\.5 h, from its logs' first line \\(${
            iso(T - 1.5 * H).replace(".000", "")
          }\\) to its until \\(${iso(T - H).replace(".000", "")}\\)\\.`,
      ),
    );
    // An until past now: the window is capped at now, and says so.
    const c = await call({
      since: iso(T - 0.5 * H),
      until: iso(T + 0.5 * H),
      baseline_since: iso(T - 2 * H),
      baseline_until: iso(T - H),
    });
    assert.equal(c.sc.templates[0].count, inside(win, T - 0.5 * H));
    assert.ok(Math.abs(c.sc.window_hours - 0.5) < 0.01, `${c.sc.window_hours}`);
    assert.match(
      c.text,
      /the window is shorter\): the window covers 0\.5\d* h, from its since \(.*\) to now/,
    );
  },
});
