import assert from "node:assert/strict";
import { changeOf, TemplateStats } from "./template_stats.ts";

Deno.test("changeOf: new, gone, up at 2x, down at half, same between, from rates", () => {
  // Equal lengths (scale 1): the ratio of rates is the ratio of counts.
  assert.deepEqual(changeOf(5, 0, 1), { change: "new", ratio: null });
  assert.deepEqual(changeOf(0, 5, 1), { change: "gone", ratio: null });
  assert.deepEqual(changeOf(10, 5, 1), { change: "up", ratio: 2 });
  assert.deepEqual(changeOf(5, 10, 1), { change: "down", ratio: 0.5 });
  assert.equal(changeOf(19, 10, 1).change, "same");
  assert.equal(changeOf(6, 10, 1).change, "same");
  // A window twice the baseline's length: twice the lines is the same rate.
  assert.deepEqual(changeOf(20, 10, 2), { change: "same", ratio: 1 });
  assert.deepEqual(changeOf(0, 0, 1), { change: "same", ratio: null });
});

Deno.test("TemplateStats counts lines, levels, first and last, times; saves and restores through JSON", () => {
  const s = new TemplateStats();
  s.add(0, "a.log", 1, 2, NaN, "first");
  s.add(1, "a.log", 2, 5, 1000, "other");
  s.add(0, "b.log", 7, 5, 2000, "again");
  s.add(-1, "b.log", 8, 2, 3000, "none");
  assert.equal(s.lines, 4);
  assert.deepEqual([s.earliest, s.latest], [1000, 3000]);
  const c = s.clusters[0];
  assert.deepEqual([c.count, c.levels[2], c.levels[5], c.firstLine, c.lastLine, c.firstFile, c.lastFile], [
    2,
    1,
    1,
    1,
    7,
    "a.log",
    "b.log",
  ]);
  assert.deepEqual([c.firstTime, c.lastTime, c.example], [2000, 2000, "first"]);
  const back = TemplateStats.restore(JSON.parse(JSON.stringify(s.save())), 2);
  assert.deepEqual(back.clusters, s.clusters);
  assert.equal(back.lines, 4);
  assert.throws(() => TemplateStats.restore(JSON.parse(JSON.stringify(s.save())), 1), TypeError);
  assert.throws(() => TemplateStats.restore({ lines: -1, clusters: [] }, 5), TypeError);
  assert.throws(() => TemplateStats.restore({ lines: 1, clusters: [{ count: "x" }] }, 5), TypeError);
});

Deno.test("hours: the part of a side's window its logs cover (until, or none, capped at now), else its first to last time", async () => {
  const { hours } = await import("./pattern_rows.ts");
  const H = 3_600_000;
  const now = 100 * H;
  // The logs cover the whole window: its length.
  assert.equal(hours({ since: 10 * H, until: 12 * H }, 0, 99 * H, now), 2);
  // until past now: capped at now.
  assert.equal(hours({ since: 10 * H, until: 200 * H }, 0, 200 * H, now), 90);
  // A log that began inside the window (a trial: 10:30 in a 10:00..11:00 window): the part it covers.
  assert.equal(hours({ since: 10 * H, until: 11 * H }, 10.5 * H, 20 * H, now), 0.5);
  // No until: to now, as a side with an until runs to it (issue #24: a window cut at its last line, 0.825 h,
  // against a baseline's full hour made a ratio of 1.29 read ×1.563); a quiet log's last line is not its end.
  assert.equal(hours({ since: 10 * H, until: Infinity }, 11 * H, 15 * H, now), 89);
  assert.equal(hours({ since: 98 * H, until: Infinity }, 0, 98.825 * H, now), 2);
  assert.equal(hours(undefined, 11 * H, 15 * H, now), 4);
  // All lines at one instant, no timestamp, a window the logs do not reach: not known.
  assert.equal(hours(undefined, 11 * H, 11 * H, now), null);
  assert.equal(hours(undefined, NaN, NaN, now), null);
  assert.equal(hours({ since: 200 * H, until: 300 * H }, 0, 400 * H, now), null);
});
