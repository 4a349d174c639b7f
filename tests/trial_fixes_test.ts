/**
 * A new user's trial (issue #10), end to end through the MCP client, each checked against an independent
 * source: a spilled `log_tail` shows the newest lines (`tail -n`); `log_files` counts every entry past its
 * cap (`find | wc -l`); the advice for a refused format names the file's absolute real path, quoted so
 * the shell runs it (`xz -dc` on it gives the original bytes back); and the descriptions say true things.
 */
import assert from "node:assert/strict";
import { connect } from "./mcp_client.ts";
import { tempDir } from "./fixtures.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** Runs a command; its stdout as text (throws on a non-zero exit). */
function run(cmd: string, args: string[]): string {
  const o = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).outputSync();
  if (!o.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(o.stderr)}`);
  return new TextDecoder().decode(o.stdout);
}

Deno.test({
  name:
    "e2e: a spilled log_tail shows the newest lines (tail -n agrees); the artifact holds all, older first",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-trial-tail-");
    let s = "";
    for (let i = 1; i <= 300; i++) {
      s += `2024-05-01 10:00:${String(i % 60).padStart(2, "0")} ${i % 7 ? "INFO" : "ERROR"} seq=${i} ` +
        "y".repeat(60) + "\n";
    }
    Deno.writeTextFileSync(`${dir}/dpkg.log`, s);
    const want = run("tail", ["-n", "200", `${dir}/dpkg.log`]).split("\n").slice(0, -1);
    const total = Number(run("wc", ["-l", `${dir}/dpkg.log`]).trim().split(" ")[0]);
    assert.equal(want.length, 200);
    await using c = await connect([dir]);
    const r = await c.call("log_tail", { file: "dpkg.log", lines: 200 });
    const sc = r.structuredContent;
    const k = sc.lines.length;
    assert.ok(k > 0 && k < 200, `shown ${k}`);
    // structuredContent: the last k of tail -n 200, in file order, with their real line numbers.
    assert.deepEqual(sc.lines.map((l: { text: string }) => l.text), want.slice(200 - k));
    assert.deepEqual(
      sc.lines.map((l: { line_no: number }) => l.line_no),
      Array.from({ length: k }, (_, i) => total - k + 1 + i),
    );
    // The text shows the same lines and says which they are.
    const text = r.content[0].text;
    assert.ok(text.includes(`${total} ${want.at(-1)!.includes("ERROR") ? "ERROR" : "INFO"} ${want.at(-1)}`));
    assert.ok(!text.includes(`\n${total - 199} `), "the oldest line of the window is not shown");
    assert.match(text, new RegExp(`Shown: items ${201 - k}\\.\\.200 of 200 \\(the newest\\)\\.`));
    assert.match(
      text,
      new RegExp(
        `read the ${
          200 - k
        } older one\\(s\\) with read_artifact\\(artifact_id="${sc.artifact.artifact_id}", ` +
          `offset=0, limit=${200 - k}\\)`,
      ),
    );
    assert.deepEqual([sc.artifact.total_lines, sc.artifact.next_offset], [200, 0]);
    // The advertised call, paged on by next_offset (a page holds what fits within LOGPEEK_INLINE_CHARS:
    // issue #24), gives exactly the older lines; the artifact holds all 200 in order.
    const pages = async (limit: number, upTo: number) => {
      const got: string[] = [];
      for (let offset: number | null = 0; offset !== null && offset < upTo;) {
        const p: { lines: string[]; next_offset: number | null } =
          (await c.call("read_artifact", { artifact_id: sc.artifact.artifact_id, offset, limit }))
            .structuredContent;
        got.push(...p.lines.slice(0, upTo - offset));
        offset = p.next_offset;
      }
      return got.map((l: string) => l.replace(/^\d+ \w+ /, ""));
    };
    assert.deepEqual(await pages(200 - k, 200 - k), want.slice(0, 200 - k));
    assert.deepEqual(await pages(200, 200), want);
  },
});

Deno.test({
  name: "e2e: log_files past its cap counts every file not listed (find | wc -l agrees) and says how many",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-trial-many-");
    for (let d = 0; d < 3; d++) {
      Deno.mkdirSync(`${dir}/d${d}`);
      for (let i = 0; i < 335; i++) Deno.writeTextFileSync(`${dir}/d${d}/f${i}.log`, "2024-05-01 INFO x\n");
    }
    const found = Number(run("bash", ["-c", `find '${dir}' -type f | wc -l`]).trim());
    assert.equal(found, 1005);
    await using c = await connect([dir]);
    const r = await c.call("log_files", {});
    const sc = r.structuredContent;
    assert.equal(sc.artifact.total_lines + sc.not_listed, found);
    assert.deepEqual([sc.complete, sc.not_listed, sc.unreadable], [false, found - 1000, []]);
    assert.match(
      r.content[0].text,
      /^1000 log file\(s\) listed; the list is NOT complete: 5 entries not listed \(only the first 1000 files are listed\)\./,
    );
    // The listed ones are the first 1000 by name (LC_ALL=C sort); the 5 left out are the last.
    const sorted = run("bash", ["-c", `cd '${dir}' && find . -type f | sed 's|^\\./||' | LC_ALL=C sort`])
      .split("\n").slice(0, -1);
    assert.equal(sorted.length, 1005);
    assert.ok(sc.artifact, "1000 entries spill");
    assert.ok(sc.spill_summary.last.startsWith(`${sorted[999]}\t`), sc.spill_summary.last);
  },
});

/** The command in an advice: what is between the backticks after "run ". */
function advised(text: string): string {
  const m = /run `([^`]+)`/.exec(text);
  assert.ok(m, text);
  return m[1];
}

Deno.test({
  name:
    "e2e: with two roots, the advice for an xz log names its real path, quoted; the shell runs it as shown",
  ...opts,
  async fn() {
    const base = tempDir("logpeek-trial-roots-");
    Deno.mkdirSync(`${base}/x/logs`, { recursive: true });
    Deno.mkdirSync(`${base}/y/logs`, { recursive: true });
    Deno.writeTextFileSync(`${base}/x/logs/a.log`, "2024-05-01 INFO a\n");
    const names = ["OpenSSH_2k.log", "it's.log", "new\nline.log"];
    const content = "2024-05-01 10:00:00 sshd[1]: Accepted password for root\n";
    for (const n of names) {
      Deno.writeTextFileSync(`${base}/y/logs/${n}`, content);
      run("xz", [`${base}/y/logs/${n}`]); // leaves n + ".xz"
    }
    const real = Deno.realPathSync(`${base}/y/logs`);
    await using c = await connect([`${base}/x/logs`, `${base}/y/logs`]);
    const list = (await c.call("log_files", {})).structuredContent;
    for (const n of names) {
      const r = await c.call("log_tail", { file: `logs-2/${n}.xz` });
      assert.equal(r.isError, true);
      const cmd = advised(r.content[0].text);
      assert.ok(!cmd.includes("logs-2"), cmd);
      assert.ok(cmd.includes(real), cmd); // the absolute real path
      assert.ok(!/[\n\r]/.test(cmd), "the command takes one line");
      // Run as shown (bash, for the $'…' of a name with a line feed): the log's text comes back.
      assert.equal(run("bash", ["-c", cmd]), content);
      // log_files marks it with the same command.
      const entry = list.files.find((f: { file: string }) => f.file === `logs-2/${n}.xz`);
      assert.equal(advised(entry.unsupported), cmd);
    }
    assert.match(
      advised((await c.call("log_tail", { file: "logs-2/it's.log.xz" })).content[0].text),
      /\/it'\\''s\.log\.xz'$/,
    );
    assert.match(
      advised((await c.call("log_tail", { file: "logs-2/new\nline.log.xz" })).content[0].text),
      /^xz -dc \$'.*new\\nline\.log\.xz'$/,
    );
  },
});

Deno.test({
  name:
    "e2e: the descriptions say RE2's syntax (and it is: (?P<u>…), [[:digit:]], \\pL match as grep -P does) and how a .gz is tailed",
  ...opts,
  async fn() {
    const dir = tempDir("logpeek-trial-texts-");
    Deno.writeTextFileSync(
      `${dir}/a.log`,
      "2024-05-01 INFO user=alice id=42\n2024-05-01 INFO user=bob\nx 7\n",
    );
    await using c = await connect([dir]);
    const { tools } = (await c.client.listTools()) as {
      tools: {
        name: string;
        description?: string;
        inputSchema: { properties: Record<string, { description: string }> };
      }[];
    };
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // Listed: short (issue #24); in full: docs/tool_schemas.md, made from the same zod schemas.
    assert.match(byName.log_search.inputSchema.properties.regex.description, /^RE2 syntax/);
    assert.match(byName.log_tail.description!, /from its last 262144 bytes .*a \.gz is read whole/);
    const docs = Deno.readTextFileSync(new URL("../docs/tool_schemas.md", import.meta.url));
    const section = (tool: string) => docs.slice(docs.indexOf(`## ${tool}:`)).split("\n## ")[0];
    const regex = section("log_search").split("\n").find((l) => l.startsWith("| `regex` |"))!;
    assert.match(regex, /RE2's, not JavaScript's/);
    assert.doesNotMatch(regex, /RE2 syntax \(JavaScript's/);
    const tail = section("log_tail");
    assert.match(tail, /A \.gz log is decompressed whole/);
    assert.match(tail, /Of a plain log it reads at most the last 262144 bytes/);
    assert.match(tail, /shows the newest lines/);
    assert.match(section("log_files"), /not_listed counts every entry not listed/);
    assert.match(section("read_artifact"), /LOGPEEK_ARTIFACT_MAX_BYTES/);
    // The syntax the description names works, and finds what grep -P finds.
    for (
      const [pattern, grepP] of [["user=(?P<u>[a-z]+) id", "user=(?P<u>[a-z]+) id"], [
        "[[:digit:]]{2}",
        "[[:digit:]]{2}",
      ], ["^\\pL \\d", "^\\pL \\d"]]
    ) {
      const r = await c.call("log_search", { file: "a.log", text: pattern, regex: true });
      assert.equal(r.isError, undefined, r.content[0].text);
      const want = run("bash", ["-c", `grep -nP '${grepP}' '${dir}/a.log' | cut -d: -f1 || true`]).split("\n")
        .filter(Boolean).map(Number);
      assert.deepEqual(r.structuredContent.matches.map((m: { line_no: number }) => m.line_no), want, pattern);
    }
    // The tools reference (docs/tools.md, moved out of the README: issue #24) says the same.
    const README = Deno.readTextFileSync(new URL("../docs/tools.md", import.meta.url)).replace(/\s+/g, " ");
    assert.match(README, /\*\*`regex`\*\* is a pattern in RE2 syntax — RE2's, not JavaScript's/);
    assert.match(README, /A `\.gz` log is decompressed whole instead/);
    assert.match(README, /`not_listed` counts every entry not listed, the files past the 1000 included/);
  },
});
