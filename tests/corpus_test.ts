/**
 * `log_levels` against the true level of every line of five real logs (Loghub; `../shared/corpus`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { connect } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";

const shared = sharedDir("Loghub level counts");

Deno.test({
  name: "e2e: log_levels agrees with the Level column of the Loghub CSVs",
  ignore: shared === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = join(shared!, "corpus", "loghub");
    await using s = await connect([dir]);
    for (const name of ["Apache", "HDFS", "Hadoop", "Spark", "Zookeeper"]) {
      const rows = parse(Deno.readTextFileSync(join(dir, `${name}_2k.log_structured.csv`)), {
        columns: true,
      }) as Record<string, string>[];
      const want: Record<string, number> = {
        TRACE: 0,
        DEBUG: 0,
        INFO: 0,
        NOTICE: 0,
        WARN: 0,
        ERROR: 0,
        FATAL: 0,
        UNKNOWN: 0,
      };
      for (const r of rows) want[r.Level.toUpperCase()]++;
      const got = (await s.call("log_levels", { file: `${name}_2k.log` })).structuredContent;
      assert.deepEqual(got.counts, want, name);
      assert.deepEqual([got.total_lines, got.complete], [rows.length, true], name);
    }
  },
});
