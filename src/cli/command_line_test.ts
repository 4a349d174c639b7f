import assert from "node:assert/strict";
import { parseCommandLine, toArgs } from "./command_line.ts";

Deno.test("parseCommandLine: the first mistake, as one line", () => {
  const cases: [string[], string][] = [
    [["-v"], "unknown option -v; did you mean -V (--version)?"],
    [["/logs", "-x", "--verison"], "unknown option -x"],
    [["-hv"], "unknown option -v; did you mean -V (--version)?"],
    [["--state-dir"], "option --state-dir needs a value"],
    [["--state-dir", "--no-trace", "/logs"], "option --state-dir needs a value"],
    [["--state-dir="], "option --state-dir needs a value"],
    [["--client", "-h"], "option --client needs a value"],
    [["--help=yes"], "option --help takes no value"],
    [["-V=1"], "unknown option -="],
  ];
  for (const [args, error] of cases) {
    assert.deepEqual(parseCommandLine(args), { error }, JSON.stringify(args));
  }
});

Deno.test("parseCommandLine: values with dashes given with =, and ROOTs after --", () => {
  const c = parseCommandLine(["--state-dir=-odd", "--trust-gid", "4", "--trust-gid=5", "--", "-v"]);
  assert.ok(!("error" in c));
  assert.deepEqual({ ...c.values }, { "state-dir": "-odd", "trust-gid": ["4", "5"] });
  assert.deepEqual(c.positionals, ["-v"]);
});

Deno.test("toArgs: written back, a command line reads the same", () => {
  const lines = [
    ["--state-dir", "/s", "--no-trace", "/var/log", "-"],
    ["config", "--client", "cursor", "--binary=-b", "--trust-gid", "1", "--trust-gid", "2", "/l"],
    ["--state-dir=-x", "--", "--not-an-option", "trace-report"],
    ["trace-report", "--json"],
  ];
  for (const args of lines) {
    const once = parseCommandLine(args);
    assert.ok(!("error" in once), JSON.stringify(args));
    assert.deepEqual(parseCommandLine(toArgs(once)), once, JSON.stringify(args));
  }
  assert.deepEqual(toArgs({ values: { "state-dir": "/s", json: false }, positionals: ["a"] }), [
    "--state-dir=/s",
    "--",
    "a",
  ]);
});
