/**
 * The backend contract (issue #25 item 3; the cases: `backend_contract.ts`), run over a files root and
 * over a real ClickHouse server (`clickhouse_server.ts`; ignored, with a SKIP line, where it is not
 * installed), each loaded with the same entries. One logpeek session per backend serves the cases; a case
 * with a budget starts its own (the budgets are read once, from the environment).
 *
 * Where the backends differ by design, the `Backend` descriptions say so: a table has no line numbers
 * (`line_no` null), shows a row as `TIME LEVEL BODY` in RFC 3339 (`-` for no level), matches a text on
 * the body only (a file: on the whole line), orders equal times by a salted hash (a file: as written),
 * and answers context lines and `log_patterns` with `invalid_argument`. A budget of 0 stops both the same
 * way: `LOGPEEK_SEARCH_BYTES=0` with `size_budget`, `LOGPEEK_SEARCH_MS=0` (and `LOGPEEK_LEVELS_MS=0`) with
 * `time_budget`, `complete: false`, no cursor. A case a backend fails by a known defect is ignored over
 * it, the defect printed (SKIP): see each `knownBugs`.
 *
 * Adding a backend: load `contractEntries()` into it, describe it as a `Backend`, and call `runContract`.
 */

import { clickHouseBackend, contractEntries, filesBackend, runContract } from "./backend_contract.ts";
import { NEEDS_CLICKHOUSE, startClickHouse } from "./clickhouse_server.ts";

const entries = contractEntries();

Deno.test("the backend contract over a files root", async (t) => {
  await runContract(t, filesBackend(entries), entries);
});

Deno.test("the backend contract over a ClickHouse table", NEEDS_CLICKHOUSE, async (t) => {
  await using ch = await startClickHouse("the backend contract over ClickHouse (issue #25)");
  if (!ch) return;
  await runContract(t, await clickHouseBackend(ch, entries), entries);
});
