/**
 * The backend contract (issue #25 item 3; the cases: `backend_contract.ts`), run over a files root and
 * over a real ClickHouse server (`clickhouse_server.ts`; ignored, with a SKIP line, where it is not
 * installed), each loaded with the same entries.
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
