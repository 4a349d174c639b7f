/**
 * `log_levels` against the true level of every line of the seven Loghub samples (`../shared/corpus`):
 * five from the CSVs' Level column; Linux and OpenSSH, whose headers hold no level, from the programs'
 * own level prefixes (`tests/loghub_truth.ts`), so that level words of their message text stay
 * uncounted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "./mcp_client.ts";
import { LOGHUB, trueLevels } from "./loghub_truth.ts";
import { sharedDir } from "./shared_dir.ts";

const shared = sharedDir("Loghub level counts");

/** Per-level counts of the Loghub samples, worked out by hand from their CSVs (a check on the truth). */
const EXPECTED: Record<string, Record<string, number>> = {
  Apache: { NOTICE: 1405, ERROR: 595 },
  HDFS: { INFO: 1920, WARN: 80 },
  Hadoop: { INFO: 1040, WARN: 808, ERROR: 150, FATAL: 2 },
  Linux: { INFO: 1, WARN: 2, FATAL: 43, UNKNOWN: 1954 },
  OpenSSH: { ERROR: 47, FATAL: 1, UNKNOWN: 1952 },
  Spark: { INFO: 2000 },
  Zookeeper: { INFO: 669, WARN: 1318, ERROR: 13 },
};

const ZERO = { TRACE: 0, DEBUG: 0, INFO: 0, NOTICE: 0, WARN: 0, ERROR: 0, FATAL: 0, UNKNOWN: 0 };

Deno.test({
  name: "e2e: log_levels agrees with the true levels of all seven Loghub samples",
  ignore: shared === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = join(shared!, "corpus", "loghub");
    await using s = await connect([dir]);
    for (const name of LOGHUB) {
      const levels = trueLevels(dir, name);
      const want: Record<string, number> = { ...ZERO };
      for (const l of levels) want[l]++;
      assert.deepEqual(want, { ...ZERO, ...EXPECTED[name] }, `${name}: the truth itself`);
      const got = (await s.call("log_levels", { file: `${name}_2k.log` })).structuredContent;
      assert.deepEqual(got.counts, want, name);
      assert.deepEqual([got.total_lines, got.complete], [levels.length, true], name);
    }
  },
});
