/**
 * Issue #23 item 2, end to end through the real MCP client: `log_levels` offers an access log's levels
 * derived from each line's HTTP status (`derived_levels`, `derived_from`), apart from the written levels
 * (`counts`, where those lines are UNKNOWN). Checked against awk's count of the status column of
 * generated logs (combined format, W3C with a `#Fields:` directive mid-file, JSON, the same log gzipped)
 * and of lnav's corpus, and against lnav's own levels of its access logs, each difference judged.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { mulberry32, tempDir } from "./fixtures.ts";
import { connect } from "./mcp_client.ts";
import { sharedDir } from "./shared_dir.ts";
import { haveLnav, lnavRows } from "./lnav_peer.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

/** awk's tally of statuses (`status` = the awk expression that gives a line's, "" for none), by level. */
function awkLevels(file: string, status: string, pre = ""): Record<string, number> {
  const prog = `${pre} { s = ${status}; if (s !~ /^[0-9][0-9][0-9]$/ || s < 100 || s > 599) u++; ` +
    "else if (s >= 500) e++; else if (s >= 400) w++; else i++ } " +
    "END { print i + 0, w + 0, e + 0, u + 0 }";
  const out = new Deno.Command("awk", { args: [prog, file], stdout: "piped" }).outputSync();
  assert.ok(out.success, "awk ran");
  const [i, w, e, u] = new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
  return { INFO: i, WARN: w, ERROR: e, UNKNOWN: u };
}

/** The derived counts' levels that can be nonzero. */
const pick = (c: Record<string, number>) => ({
  INFO: c.INFO,
  WARN: c.WARN,
  ERROR: c.ERROR,
  UNKNOWN: c.UNKNOWN,
});

const STATUSES = [200, 200, 200, 204, 301, 304, 400, 401, 404, 404, 429, 500, 502, 503];

Deno.test({
  name: "log_levels derived_levels: combined, W3C (two #Fields:), JSON and .gz access logs, as awk counts " +
    "their status column; written counts stay UNKNOWN; a log without statuses has none",
  ...opts,
  async fn() {
    const rand = mulberry32(404);
    const pickStatus = () => STATUSES[Math.floor(rand() * STATUSES.length)];
    const dir = tempDir("logpeek-derived-");
    const combined: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const t = `01/May/2024:10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      }`;
      // Now and then a line with no status (a request nginx could not read logs "-" and a status: kept).
      combined.push(
        rand() < 0.02
          ? `10.0.0.${i % 250} - - [${t} +0000] "-" 400 0 "-" "-"`
          : `10.0.0.${i % 250} - - [${t} +0000] "GET /item/${i}?q=a%20b HTTP/1.1" ${pickStatus()} ${
            Math.floor(rand() * 9000)
          } "-" "Mozilla/5.0 (X11; Linux x86_64)"`,
      );
    }
    Deno.writeTextFileSync(join(dir, "access.log"), combined.join("\n") + "\n");
    Deno.writeFileSync(
      join(dir, "access.log.1.gz"),
      gzipSync(new TextEncoder().encode(combined.join("\n") + "\n")),
    );
    // W3C: the columns change at a second #Fields: (IIS writes one at each restart).
    const w3c = [
      "#Software: Microsoft Internet Information Services 10.0",
      "#Fields: date time cs-method cs-uri-stem sc-status",
    ];
    for (let i = 0; i < 3000; i++) {
      if (i === 1500) {
        w3c.push("#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query sc-status time-taken");
      }
      w3c.push(
        i < 1500
          ? `2024-05-01 10:00:00 GET /a/${i} ${pickStatus()}`
          : `2024-05-01 10:00:00 10.0.0.1 GET /b/${i} - ${pickStatus()} 15`,
      );
    }
    Deno.writeTextFileSync(join(dir, "u_ex240501.log"), w3c.join("\n") + "\n");
    const json = Array.from(
      { length: 2000 },
      (_, i) =>
        `{"time":"2024-05-01T10:00:00Z","method":"GET","uri":"/j/${i}","status":${pickStatus()},"size":1}`,
    );
    Deno.writeTextFileSync(join(dir, "access.json"), json.join("\n") + "\n");
    Deno.writeTextFileSync(join(dir, "app.log"), "2024-05-01 10:00:00 ERROR request 500 failed\n".repeat(50));
    await using s = await connect([dir]);
    const cases: [string, string, string, string][] = [
      [
        "access.log",
        "access.log",
        '$0 ~ /" [0-9][0-9][0-9] / ? substr($0, index($0, "\\" ") + 2, 3) : ""',
        "",
      ],
      [
        "access.log.1.gz",
        "access.log",
        '$0 ~ /" [0-9][0-9][0-9] / ? substr($0, index($0, "\\" ") + 2, 3) : ""',
        "",
      ],
      [
        "u_ex240501.log",
        "u_ex240501.log",
        '/^#/ ? "" : $col',
        '/^#Fields:/ { for (k = 2; k <= NF; k++) if ($k == "sc-status") col = k - 1 }',
      ],
      ["access.json", "access.json", 'substr($0, index($0, "\\"status\\":") + 9, 3)', ""],
    ];
    for (const [file, plain, status, pre] of cases) {
      const want = awkLevels(join(dir, plain), status, pre);
      const r = await s.call("log_levels", { file });
      const sc = r.structuredContent;
      assert.deepEqual(pick(sc.derived_levels), want, file);
      assert.equal(sc.derived_from, "http_status: 5xx ERROR, 4xx WARN, 1xx-3xx INFO");
      assert.equal(sc.counts.UNKNOWN, sc.total_lines, `${file}: no level is written, so none is read`);
      assert.ok(want.ERROR > 0 && want.WARN > 0 && want.INFO > 0);
      assert.match(r.content[0].text, /Derived from the HTTP status \(5xx ERROR, 4xx WARN, 1xx-3xx INFO\)/);
    }
    const app = (await s.call("log_levels", { file: "app.log" })).structuredContent;
    assert.equal(app.derived_levels, undefined);
    assert.equal(app.counts.ERROR, 50);
    // A glob: the logs with statuses summed.
    const both = (await s.call("log_levels", { file: "access.log*" })).structuredContent;
    const one = awkLevels(join(dir, "access.log"), cases[0][2]);
    assert.deepEqual(pick(both.derived_levels), {
      INFO: 2 * one.INFO,
      WARN: 2 * one.WARN,
      ERROR: 2 * one.ERROR,
      UNKNOWN: 0,
    });
  },
});

/** lnav 0.11.1's formats whose level lnav derives from the HTTP status (its format definitions). */
const LNAV_STATUS = new Set(["access_log", "w3c_log", "uwsgi_log"]);

Deno.test({
  name: "log_levels derived_levels on lnav's corpus: awk's status counts of its combined-format logs, and " +
    "lnav's own levels of its access, W3C and uWSGI logs, each difference judged",
  ...opts,
  ignore: sharedDir("the lnav corpus's access logs") === null,
  async fn() {
    const logs = join(sharedDir("the lnav corpus's access logs")!, "corpus", "lnav", "logs");
    await using s = await connect([logs]);
    // awk on the status column of the combined-format logs (the field after the request's closing quote).
    const clf = '$0 ~ /" [0-9][0-9][0-9] / ? substr($0, index($0, "\\" ") + 2, 3) : ""';
    for (
      const file of [
        "logfile_access_log.0",
        "logfile_access_log.1",
        "logfile_shop_access_log.0",
        "logfile_regexp_access_log.0",
      ]
    ) {
      const sc = (await s.call("log_levels", { file })).structuredContent;
      assert.deepEqual(pick(sc.derived_levels), awkLevels(join(logs, file), clf), file);
    }
    if (!haveLnav("the comparison with lnav's levels")) return;
    const home = tempDir("logpeek-lnav-home-");
    let compared = 0;
    for (const file of [...Deno.readDirSync(logs)].map((e) => e.name).sort()) {
      const rows = lnavRows(join(logs, file), home).filter((r) => LNAV_STATUS.has(r.log_format));
      if (rows.length === 0) continue;
      const sc = (await s.call("log_levels", { file })).structuredContent;
      assert.ok(sc.derived_levels, `${file}: lnav reads its status, logpeek must too`);
      const d = sc.derived_levels;
      const info = rows.filter((r) => r.log_level === "info").length;
      const error = rows.filter((r) => r.log_level === "error").length;
      assert.equal(info + error, rows.length, `${file}: lnav gives only info and error here`);
      // Verdicts, from reading the lines:
      // - lnav calls a 4xx `error` (its access_log and w3c_log formats: /^[45]/); logpeek's rule says WARN
      //   (the client's request failed, not the server): lnav's error = ERROR + WARN.
      // - lnav gives `info` to a line whose status is empty (logfile_w3c.4's second line has sc-status
      //   ""): logpeek counts it under UNKNOWN (no status): lnav's info = INFO + those.
      // - lnav makes one row of a W3C file's data lines only; logpeek's UNKNOWN also holds its #directives.
      const noStatus = file === "logfile_w3c.4" ? 1 : 0;
      assert.deepEqual([d.INFO + noStatus, d.ERROR + d.WARN], [info, error], file);
      compared++;
    }
    assert.ok(compared >= 10, `${compared} logs compared with lnav`);
  },
});
