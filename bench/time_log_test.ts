import assert from "node:assert/strict";
import { join } from "node:path";
import { isoTimeOf, makeTimeLog, TIME_LOG_START } from "./time_log.ts";
import { sharedDir } from "../tests/shared_dir.ts";

const shared = sharedDir("the time-ordered bench log's builder");

/** Runs a shell command and returns its stdout, trimmed. */
function sh(cmd: string): string {
  const out = new Deno.Command("sh", { args: ["-c", cmd] }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "makeTimeLog: what it records agrees with wc, grep and awk over the file it wrote",
  ignore: shared === null,
  fn() {
    const dir = Deno.makeTempDirSync({ prefix: "logpeek-timelog-" });
    try {
      const path = join(dir, "t.log");
      const m = makeTimeLog(join(shared!, "corpus", "loghub"), path, 1 << 20);
      assert.equal(Number(sh(`wc -c < ${path}`)), m.size);
      assert.equal(Number(sh(`wc -l < ${path}`)), m.lines);
      assert.equal(Number(sh(`grep -c '^\tat ' ${path}`)), m.untimed);
      // Every other line has the ISO header.
      const iso = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z ";
      assert.equal(Number(sh(`grep -Ec '${iso}' ${path}`)), m.lines - m.untimed);
      // Times never decrease (ISO UTC text sorts as time does); first and last.
      const awk = `awk '/^\\t/ {next} {t = substr($0, 1, 24); if (t < p) bad++; p = t; if (!f) f = t} ` +
        `END {print bad + 0, f, p}' ${path}`;
      assert.deepEqual(sh(awk).split(" "), [
        "0",
        new Date(TIME_LOG_START).toISOString(),
        new Date(m.lastMs).toISOString(),
      ]);
      // The last-1% window: lines whose time (an untimed line's is the timed line's before it) ≥ since.
      const since = new Date(m.sinceMs).toISOString();
      const inWindow = sh(
        `awk '!/^\\t/ {t = substr($0, 1, 24)} t >= "${since}" {n++} END {print n}' ${path}`,
      );
      assert.equal(Number(inWindow), m.windowLines);
      assert.equal(Number(sh(`head -c ${m.sinceOff} ${path} | wc -l`)), m.lines - m.windowLines);
      assert.ok(m.sinceOff >= 0.99 * (1 << 20) && m.sinceOff < 0.99 * (1 << 20) + 4096, `${m.sinceOff}`);
      // The stand-in reads each line's time as Date.parse reads its first 24 characters.
      const bytes = Deno.readFileSync(path);
      const text = new TextDecoder().decode(bytes);
      let s = 0;
      let checked = 0;
      for (const line of text.split("\n").slice(0, -1)) {
        const e = s + new TextEncoder().encode(line).length;
        const want = line.startsWith("\t") ? NaN : Date.parse(line.slice(0, 24));
        assert.ok(Object.is(isoTimeOf(bytes, s, e), want), line);
        s = e + 1;
        checked++;
      }
      assert.equal(checked, m.lines);
      // The same seed and size give the same bytes.
      const again = makeTimeLog(join(shared!, "corpus", "loghub"), join(dir, "u.log"), 1 << 20);
      assert.deepEqual({ ...again, path }, m);
      assert.equal(sh(`cmp ${path} ${join(dir, "u.log")} && echo same`), "same");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
