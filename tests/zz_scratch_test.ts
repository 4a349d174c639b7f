import { join } from "node:path";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";
const opts = { sanitizeResources: false, sanitizeOps: false };
Deno.test({ name: "scratch", ...opts, async fn() {
  const src = "/work/wt/shared/corpus/loghub";
  const dir = tempDir("lp-");
  Deno.copyFileSync(join(src, `Hadoop_2k.log`), join(dir, `Hadoop.log`));
  for (const lines of [false, true]) {
  await using s = await connect([dir], { LOGPEEK_INLINE_CHARS: "100000000" }, [], { args: ["--no-redact"], lines });
  const r = await s.call("log_patterns", { file: `Hadoop.log`, limit: 1000 });
  const ts = r.structuredContent.templates;
  let t0 = performance.now();
  for (const tp of ts.slice(0, 20)) await s.call("log_search", { file: "Hadoop.log", template_id: tp.template_id, limit: 5000 });
  console.log("serial 20", lines, performance.now() - t0);
  t0 = performance.now();
  await Promise.all(ts.slice(20, 40).map((tp: {template_id: string}) => s.call("log_search", { file: "Hadoop.log", template_id: tp.template_id, limit: 5000 })));
  console.log("parallel 20", performance.now() - t0);
  t0 = performance.now();
  for (const tp of ts.slice(40, 60)) await s.call("log_search", { file: "Hadoop.log", template_id: tp.template_id, limit: 1 });
  console.log("serial 20 limit1", performance.now() - t0);
  }
}});
