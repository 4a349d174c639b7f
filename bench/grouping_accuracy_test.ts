import assert from "node:assert/strict";
import { groupingAccuracy, type LabelledLog, leaveOneOut, samePartition } from "./grouping_accuracy.ts";

Deno.test("groupingAccuracy: a line counts only when its whole group is its whole true event", () => {
  // True events: A = {0,1,2}, B = {3,4}, C = {5}. Predicted: {0,1,2} right (3 lines); {3} and {4} split B
  // (0); {5} right (1): 4 of 6.
  assert.equal(groupingAccuracy(["x", "x", "x", "y", "z", "w"], ["A", "A", "A", "B", "B", "C"]), 4 / 6);
  // One group merging B and C: B's and C's lines all wrong, A's right: 3 of 6.
  assert.equal(groupingAccuracy(["x", "x", "x", "y", "y", "y"], ["A", "A", "A", "B", "B", "C"]), 3 / 6);
  assert.equal(groupingAccuracy(["a", "b"], ["A", "B"]), 1);
  assert.throws(() => groupingAccuracy(["a"], []), RangeError);
});

Deno.test("samePartition: names aside, the same groups", () => {
  assert.ok(samePartition(["a", "a", "b"], ["q", "q", "r"]));
  assert.ok(!samePartition(["a", "a", "b"], ["q", "r", "r"]));
  assert.ok(!samePartition(["a", "b", "b"], ["q", "q", "q"]));
  assert.ok(!samePartition(["a", "a", "a"], ["q", "r", "q"]));
});

Deno.test("leaveOneOut: each log gets the pair best on the others, scored on itself", () => {
  const logs = ["p", "q", "r"].map((name) =>
    ({ name, file: "", lines: [], truth: [] }) as unknown as LabelledLog
  );
  const grid = [{ similarity: 0.5, depth: 4, variants: 4 }, { similarity: 0.7, depth: 4, variants: 4 }];
  // Pair 0: 1.0, 1.0, 0.1; pair 1: 0.8, 0.8, 0.9. Leaving p out: pair 0 mean (1.0 + 0.1) / 2 = 0.55,
  // pair 1 0.85: pair 1, 0.8 on p. Leaving r out: pair 0 (1.0), 0.1 on r.
  const folds = leaveOneOut(logs, [[1, 1, 0.1], [0.8, 0.8, 0.9]], grid);
  assert.deepEqual(folds.map((f) => [f.chosen.similarity, f.heldOut]), [[0.7, 0.8], [0.7, 0.8], [0.5, 0.1]]);
  assert.equal(folds[2].trainMean, 1);
});
