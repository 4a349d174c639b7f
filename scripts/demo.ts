/**
 * `deno task demo`: runs logpeek on the bundled sample logs (`fixtures/demo`) through the MCP SDK's
 * client, exactly as an MCP client would start it, and prints what an agent sees for a few typical
 * calls, failures included.
 *
 * Permission (of this script): `--allow-read`, `--allow-run` (to start the server), `--allow-env`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { connect } from "../tests/mcp_client.ts";
import { renderReport, traceReport } from "../src/cli/trace_report.ts";

const root = fileURLToPath(new URL("../fixtures/demo", import.meta.url));
await using s = await connect([root]);

const { tools } = (await s.client.listTools()) as { tools: { name: string; description?: string }[] };
console.log(`logpeek serves ${root}\ntools: ${tools.map((t) => t.name).join(", ")}\n`);

// An incident in three calls (issue #12): the newest logs; what went wrong in a window, in all of them,
// with the lines around it; how many lines of each level that window has.
const window = { since: "2026-10-28T10:59:00Z", until: "2026-10-28T11:05:00Z" };
const calls: [string, Record<string, unknown>][] = [
  ["log_files", { sort: "modified", limit: 10 }],
  ["log_search", {
    file: "**/*.log",
    text: ".",
    regex: true,
    level: "ERROR",
    ...window,
    context: 2,
    limit: 6,
  }],
  ["log_levels", { file: "**/*", ...window }],
  // What is different in that window from the hour before it (issue #13).
  ["log_patterns", {
    file: "**/*.log",
    ...window,
    baseline_since: "2026-10-28T10:00:00Z",
    baseline_until: "2026-10-28T10:59:00Z",
    limit: 6,
  }],
  ["log_levels", { file: "app.log" }],
  ["log_tail", { file: "app.log", lines: 5 }],
  ["log_search", { file: "app.log", text: "order=A-1009", limit: 5 }],
  ["log_tail", { file: "app.log", lines: 3, level: "ERROR" }],
  ["log_levels", { file: "services/worker.jsonl" }],
  ["log_tail", { file: "services/sync-windows.log", lines: 2 }],
  ["log_tail", { file: "app.log.1" }],
  ["log_search", { file: "../../etc/passwd", text: "root" }],
  ["log_search", { file: "app.log", text: "ERROR", limit: 5000 }],
];
let artifact: { artifact_id: string; next_offset: number } | undefined;
for (const [name, args] of calls) {
  const r = await s.call(name, args);
  console.log(`── ${name} ${JSON.stringify(args)}${r.isError ? "  → isError" : ""}`);
  console.log(r.content.map((c) => c.text).join("\n"));
  console.log();
  artifact = r.structuredContent?.artifact ?? artifact;
}
if (artifact) {
  const args = { artifact_id: artifact.artifact_id, offset: artifact.next_offset, limit: 3 };
  const r = await s.call("read_artifact", args);
  console.log(`── read_artifact ${JSON.stringify(args)}`);
  console.log(r.content.map((c) => c.text).join("\n"));
  console.log();
}
console.log(`── logpeek trace-report --state-dir ${s.stateDir}`);
console.log(renderReport(await traceReport(s.stateDir)));
