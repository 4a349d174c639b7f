import assert from "node:assert/strict";
import { mergeClusters, type MergeInput } from "./template_merge.ts";
import { learnHeader, TemplateMiner } from "./template_miner.ts";

/** The miner's rule for tokens that never share a template, as far as these tests need (none). */
const never = () => false;
const opts = { similarity: 0.6, prefix: 2, variants: 3, distinct: never };

/** A cluster with no header from its tokens (null: `<*>`), one space between them. */
function cluster(tokens: (string | null)[]): MergeInput {
  return { h: 0, tokens, seps: ["", ...tokens.slice(1).map(() => " "), ""] };
}

Deno.test("mergeClusters: clusters one line could match both are one template, joined", () => {
  // `k1 k2 a b c d e` matches both A and B (lnav's w3c_big had such a pair: `<*>` in the URL in one, in
  // the user agent in the other). C differs from A in a literal word (b / x): no line matches both.
  const a = cluster(["k1", "k2", null, "b", "c", "d", "e"]);
  const b = cluster(["k1", "k2", "a", "b", "c", null, null]);
  const c = cluster(["k1", "k2", "a", "x", "c", "d", "e"]);
  const m = mergeClusters([a, b, c], { ...opts, variants: Infinity });
  assert.equal(m.rep[0], m.rep[1]);
  // The join of A and B is `k1 k2 <*> b c <*> <*>`, which C (x at b's place) still cannot meet.
  assert.notEqual(m.rep[2], m.rep[0]);
  assert.deepEqual(m.joined.get(m.rep[0])!.tokens, ["k1", "k2", null, "b", "c", null, null]);
});

Deno.test("mergeClusters: a word that another template's <*> matches is an overlap (lnav's bro_conn)", () => {
  // A's lines hold `SF` (a word) where B's template has `S<*>` (masked from `S0`, `S1`), and any word
  // where B has `http`: a line of A (less literal text) matches B's template.
  const a = cluster(["tcp", null, "SF", "-"]), b = cluster(["tcp", "http", "S<*>", "-"]);
  assert.equal(mergeClusters([a, b], { ...opts, variants: Infinity }).rep[1], 0);
  const n = cluster(["port", "<*>", "open"]), w = cluster(["port", "ssh", "open"]);
  // `port ssh open` matches `port <*> open`, which has less literal text than its own; `port 22 open` does
  // not match `port ssh open`: apart (each line's own template is the most literal it matches).
  assert.deepEqual([...mergeClusters([n, w], { ...opts, variants: Infinity }).rep], [0, 1]);
  // `tcp <*>` (a number) against `tcp S<*>`: `tcp 12` does not match `tcp S<*>`; `tcp S0` matches
  // `tcp <*>`, but that template has less literal text than its own: apart.
  const x = cluster(["tcp", "<*>"]), y = cluster(["tcp", "S<*>"]);
  assert.deepEqual([...mergeClusters([x, y], { ...opts, variants: Infinity }).rep], [0, 1]);
});

Deno.test("mergeClusters: a cluster with no literal word does not take every cluster of its length", () => {
  const all = cluster([null, null]), x = cluster(["x", "y"]);
  // x meets it (x's literal words index it), and the merge is all `<*>`: a line of the all-`<*>` cluster
  // could be `x y`. Two literal clusters that differ stay apart.
  const m = mergeClusters([all, x, cluster(["p", "q"])], { ...opts, variants: Infinity });
  assert.equal(m.rep[1], m.rep[0]);
  assert.equal(m.rep[2], 0); // joined with the all-<*> group: its `p q` could be one of its lines
  const n = mergeClusters([x, cluster(["p", "q"])], { ...opts, variants: Infinity });
  assert.notEqual(n.rep[0], n.rep[1]);
});

Deno.test("mergeClusters: a tree word with `variants` values among otherwise alike clusters becomes <*>", () => {
  const prog = (p: string) => cluster([p, "-", "host", "open", "through", "proxy"]);
  const three = mergeClusters(["a.exe", "b.exe", "c.exe"].map(prog), opts);
  assert.deepEqual([...three.rep], [0, 0, 0]);
  assert.deepEqual(three.joined.get(0)!.tokens, [null, "-", "host", "open", "through", "proxy"]);
  // Two values (Accepted / Failed) are two events.
  const two = mergeClusters(["Accepted", "Failed"].map(prog), opts);
  assert.deepEqual([...two.rep], [0, 1]);
  // Three values, but one cluster's rest unlike the others' (similarity below 0.6 without the varying
  // word): two values among the alike ones, all apart.
  const unlike = mergeClusters([
    prog("a.exe"),
    prog("b.exe"),
    cluster(["c.exe", "-", "other", "words", "in", "it"]),
  ], opts);
  assert.deepEqual([...unlike.rep], [0, 1, 2]);
});

/** Lines in Proxifier's format (Loghub's Proxifier sample: a bracketed time, the program, its connection). */
function proxifier(programs: string[]): string[] {
  return programs.flatMap((p, i) => [
    `[10.30 16:${
      String(10 + i).padStart(2, "0")
    }:06] ${p} - proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS`,
    `[10.30 16:${String(10 + i).padStart(2, "0")}:09] ${p} - proxy.cse.cuhk.edu.hk:5070 close, ${
      100 + i
    } bytes sent, ${200 + i} bytes received, lifetime 00:0${i % 10}`,
  ]);
}

/** Each template's text and count, mining lines with a layout (or none: each line's own header). */
function mine(ls: string[], layout: ReturnType<typeof learnHeader>): [string, number][] {
  const m = new TemplateMiner();
  ls.forEach((l, i) => m.add(l, i + 1, layout));
  return m.templates().map((t) => [t.template, t.count]);
}

const PROGRAMS = ("chrome.exe Dropbox.exe SkypeApp.exe Skype.exe Outlook.exe QQ.exe WeChat.exe svchost.exe " +
  "git-remote-https.exe YodaoDict.exe putty.exe firefox.exe iexplore.exe").split(" ");

Deno.test("TemplateMiner: Proxifier's program is <*> once it takes `variants` values (each line's header)", () => {
  // Two events (open, close), each one template over the 13 programs (before: 26, one per program and
  // event): the program is the message's first word, a tree word.
  const ts = mine(proxifier(PROGRAMS), null);
  assert.deepEqual(ts.map(([, n]) => n), [13, 13]);
  for (const [t] of ts) assert.ok(!PROGRAMS.some((p) => t.includes(p)), t);
  assert.equal(
    ts[0][0],
    "<*> <*> <*> - proxy.cse.cuhk.edu.hk:<*> open through proxy proxy.cse.cuhk.edu.hk:<*> HTTPS",
  );
  // Fewer programs than `variants` (12): one template per program and event, as Drain's tree gives.
  assert.equal(mine(proxifier(PROGRAMS.slice(0, 3)), null).length, 6);
});

Deno.test("TemplateMiner: with the log's layout, Proxifier's program and host are header", () => {
  // The layout learned from the lines: the bracketed time, the program (a word between values), `-`, the
  // host and port (a value): the message is what follows, so any number of programs share a template.
  const ls = proxifier(PROGRAMS.slice(0, 3));
  const layout = learnHeader(ls);
  assert.deepEqual(layout, { h: 4, kinds: ["bracket", "word", "sep", "value"] });
  assert.deepEqual(mine(ls, layout).map(([, n]) => n), [3, 3]);
});

Deno.test("learnHeader: the leading fields most lines agree on, however many", () => {
  // Blue Gene/L (Loghub's BGL: alert flag, epoch, date, node, time, node, type, component, level).
  const bgl = [
    "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected",
    "- 1117838573 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.53.276129 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected",
    "- 1117869872 2005.06.04 R23-M1-N8-I:J18-U11 2005-06-04-00.24.32.432192 R23-M1-N8-I:J18-U11 RAS APP FATAL ciod: failed to read message prefix on control stream",
    "APPREAD 1117869876 2005.06.04 R27-M1-N4-I:J18-U11 2005-06-04-00.24.36.222560 R27-M1-N4-I:J18-U11 RAS APP FATAL ciod: failed to read message prefix on control stream",
    "- 1117955341 2005.06.05 R24-M0-N1-C:J13-U11 2005-06-05-00.09.01.903841 R24-M0-N1-C:J13-U11 RAS KERNEL INFO generating core.2275",
  ];
  // 9 fields (the first, `-` or a word, a word), the last a level; then the message.
  assert.equal(learnHeader(bgl)?.h, 9);
  // A file name before the time, then a level.
  const named = [
    "worker.log 2024-05-01 10:00:01,123 INFO job 17 started",
    "worker.log 2024-05-01 10:00:02,456 WARN cache warmed in 3 ms",
    "worker.log 2024-05-01 10:00:03,789 INFO listening on port 8080",
  ];
  assert.deepEqual(learnHeader(named), { h: 4, kinds: ["word", "value", "value", "level"] });
  // No field most lines agree on: no layout (each line's own header).
  assert.equal(learnHeader(["Hello, World!", "Goodbye", "3 lines"]), null);
});
