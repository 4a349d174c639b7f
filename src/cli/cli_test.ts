import assert from "node:assert/strict";
import { serveUsageError, stateDirFrom } from "./cli.ts";

/** An environment of `vars`, where the names in `hidden` throw as Deno.env.get does without --allow-env. */
function env(vars: Record<string, string>, hidden: string[] = []) {
  return {
    env: (name: string) => {
      if (hidden.includes(name)) throw new Deno.errors.NotCapable(`Requires env access to "${name}"`);
      return vars[name];
    },
  };
}

Deno.test("stateDirFrom: the flag, the variables in order, and a reason that is true when there is none", () => {
  assert.equal(stateDirFrom("/s", env({})), "/s");
  assert.equal(stateDirFrom(undefined, env({ LOGPEEK_STATE_DIR: "/l", HOME: "/h" })), "/l");
  assert.equal(stateDirFrom(undefined, env({ XDG_STATE_HOME: "/x", HOME: "/h" })), "/x/logpeek");
  assert.equal(stateDirFrom(undefined, env({ HOME: "/h" })), "/h/.local/state/logpeek");
  // A readable HOME is used even where the two others may not be read.
  assert.equal(
    stateDirFrom(undefined, env({ HOME: "/h" }, ["LOGPEEK_STATE_DIR"])),
    "/h/.local/state/logpeek",
  );
  const why = (flag: string | undefined, e: ReturnType<typeof env>) => {
    try {
      stateDirFrom(flag, e);
    } catch (err) {
      assert.ok(err instanceof RangeError);
      return err.message;
    }
    assert.fail("no error");
  };
  assert.equal(
    why(undefined, env({})),
    "no state directory: HOME is not set (nor LOGPEEK_STATE_DIR, XDG_STATE_HOME): pass --state-dir /absolute/path",
  );
  assert.equal(
    why(undefined, env({ HOME: "/h" }, ["LOGPEEK_STATE_DIR", "XDG_STATE_HOME", "HOME"])),
    "no state directory: --allow-env does not cover LOGPEEK_STATE_DIR, XDG_STATE_HOME, HOME: " +
      "grant --allow-env=LOGPEEK_STATE_DIR,XDG_STATE_HOME,HOME or pass --state-dir /absolute/path",
  );
  assert.equal(
    why(undefined, env({ HOME: "rel" })),
    "no state directory: HOME (rel) is not an absolute path: pass --state-dir /absolute/path",
  );
  assert.match(why("rel", env({})), /must be an absolute path, got 'rel'/);
  assert.match(why(undefined, env({ LOGPEEK_STATE_DIR: "rel" })), /must be an absolute path, got 'rel'/);
});

Deno.test("serveUsageError: what keeps a command line from serving", () => {
  const v = (values: Record<string, unknown>, positionals: string[]) =>
    serveUsageError({ values, positionals });
  assert.equal(v({}, ["/l"]), null);
  assert.equal(v({}, []), "no ROOT given: name the log directories or files to serve");
  assert.equal(
    v({}, ["/l", " "]),
    "an empty ROOT was given (an unset variable?): name the log directories or files",
  );
  assert.equal(v({ json: true }, ["/l"]), "--json goes with trace-report");
  assert.equal(v({ bundle: "/b" }, ["/l"]), "--client, --binary and --bundle go with config");
  assert.equal(
    v({ "trust-gid": ["4", "-1"] }, ["/l"]),
    "--trust-gid needs a group id (a number from 0 to 4294967294), got -1",
  );
  assert.equal(v({ "trust-gid": ["4294967294"] }, ["/l"]), null);
  assert.match(v({ "trust-gid": ["4294967295"] }, ["/l"])!, /got 4294967295$/);
  // The GID forgotten (`--trust-gid /var/log`): said before "no ROOT given".
  assert.equal(
    v({ "trust-gid": ["/var/log"] }, []),
    "--trust-gid needs a group id (a number from 0 to 4294967294), got /var/log",
  );
});
