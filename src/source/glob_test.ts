import assert from "node:assert/strict";
import {
  DISTANCE_CHOICES,
  DISTANCE_CODE_POINTS,
  globDistance,
  globMatcher,
  isGlob,
  MAX_EXPANSIONS,
} from "./glob.ts";
import { GlobScope } from "./glob_scope.ts";

/** A tree of files whose names exercise every rule: dots, rotated siblings, brackets, braces, non-ASCII. */
const NAMES = [
  "app.log",
  "app.log.1",
  "app.log.2.gz",
  "api.log",
  ".hidden.log",
  ".cache/x.log",
  "nginx/access.log",
  "nginx/error.log.1",
  "nginx/old/access.log.3.gz",
  "a/app.log",
  "a/b/c/app.log",
  "a/b/c/d.txt",
  "x]y.log",
  "we ird.log",
  "ü.log",
  "日志.log",
  "brace{1}.log",
  "lit*.log",
  "litX.log",
  "ab.log",
  "Z9.log",
];

const GLOBS = [
  "*",
  "**",
  "*.log",
  "**/*.log",
  "**/app*.log*",
  "nginx/*",
  "nginx/**",
  "a/**/app.log",
  "a/**",
  "**/c/*",
  "?pp.log",
  "app.log.[0-9]",
  "app.log.[!0-9]*",
  "app.log.[^1]*",
  "[[:alpha:]]*.log",
  "[[:upper:]][[:digit:]].log",
  "{nginx,a}/**",
  "{app,x]y}.log",
  "*.{log,gz}",
  "app.log{,.1}",
  "brace{1}.log",
  "lit\\*.log",
  "lit*.log",
  "a**p.log",
  "[]x]*",
  "**/*.{1,gz}",
  ".*",
  "*/*",
  "??.log",
  "日*",
  "*ü*",
  "a/**/c/**",
  "[a-c]*/**",
  "{a,{nginx,x}}/*",
  "**/old/**/*.gz",
  "**/.*",
  "we?ird.log",
  "[.]hidden.log",
  "*/**/*.log",
];

/**
 * The files bash's pathname expansion (globstar, dotglob; brace expansion first) gives for `glob`, in the
 * C.UTF-8 locale (`?` is one character), or in the C locale for a POSIX class, which globMatcher takes as
 * ASCII only (C.UTF-8's `[:alpha:]` holds ü and 日 too).
 */
function bashGlob(root: string, glob: string): string[] {
  const script = `shopt -s globstar dotglob nullglob; cd "$1" || exit 9; ` +
    `for f in ${glob}; do [[ -f $f && ! -L $f ]] && printf '%s\\0' "$f"; done; true`;
  const out = new Deno.Command("bash", {
    args: ["-c", script, "bash", root],
    env: { LC_ALL: glob.includes("[:") ? "C" : "C.UTF-8" },
    stdout: "piped",
  }).outputSync();
  assert.equal(out.code, 0, `bash on ${glob}`);
  return new TextDecoder().decode(out.stdout).split("\0").filter((s) => s !== "").sort();
}

Deno.test("globMatcher agrees with bash's pathname expansion (globstar, dotglob) on a tree of files", () => {
  const root = Deno.makeTempDirSync({ prefix: "logpeek-glob-" });
  try {
    for (const n of NAMES) {
      const dir = n.includes("/") ? n.slice(0, n.lastIndexOf("/")) : "";
      if (dir) Deno.mkdirSync(`${root}/${dir}`, { recursive: true });
      Deno.writeTextFileSync(`${root}/${n}`, "x\n");
    }
    const all = [...NAMES].sort();
    let nonEmpty = 0;
    for (const glob of GLOBS) {
      const expected = bashGlob(root, glob);
      if (expected.length > 0 && expected.length < all.length) nonEmpty++;
      const m = globMatcher(glob);
      assert.deepEqual(all.filter(m), expected, glob);
      // A name that matches is at distance 0 from the glob.
      for (const n of expected) assert.equal(globDistance(glob, n), 0, `${glob} ${n}`);
    }
    // The comparison tells globs apart: most select some names, not none or all.
    assert.ok(nonEmpty >= GLOBS.length - 4, `${nonEmpty} of ${GLOBS.length}`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("GlobScope holds every folder bash finds a match below, and no folder a glob of fixed depth or prefix cannot reach", () => {
  const root = Deno.makeTempDirSync({ prefix: "logpeek-scope-" });
  try {
    for (const n of NAMES) {
      const dir = n.includes("/") ? n.slice(0, n.lastIndexOf("/")) : "";
      if (dir) Deno.mkdirSync(`${root}/${dir}`, { recursive: true });
      Deno.writeTextFileSync(`${root}/${n}`, "x\n");
    }
    const folders = [
      ...new Set(NAMES.flatMap((n) => {
        const segs = n.split("/").slice(0, -1);
        return segs.map((_, i) => segs.slice(0, i + 1).join("/"));
      })),
    ].sort();
    let narrowed = 0;
    for (const glob of GLOBS) {
      const expected = bashGlob(root, glob);
      const scope = new GlobScope(glob);
      const held = folders.filter((f) => scope.holds(f));
      // Sound: a folder with a match below it is held (asked in walk order and out of it).
      for (const f of [...folders, ...[...folders].reverse()]) {
        if (expected.some((n) => n.startsWith(`${f}/`))) assert.ok(scope.holds(f), `${glob} ${f}`);
      }
      // Without `**`: no folder deeper than the glob's own folders.
      if (!glob.includes("**")) {
        const depth = glob.split("/").length - 1;
        for (const f of held) assert.ok(f.split("/").length <= depth, `${glob} ${f}`);
      }
      if (held.length < folders.length) narrowed++;
    }
    assert.deepEqual(folders.filter((f) => new GlobScope("{app,x]y}.log").holds(f)), []);
    assert.deepEqual(folders.filter((f) => new GlobScope("{nginx,a}/**").holds(f)), [
      "a",
      "a/b",
      "a/b/c",
      "nginx",
      "nginx/old",
    ]);
    assert.deepEqual(folders.filter((f) => new GlobScope("[a-c]*/*.log").holds(f)), ["a"]);
    assert.deepEqual(folders.filter((f) => new GlobScope("**/old/**/*.gz").holds(f)), folders);
    assert.deepEqual(folders.filter((f) => new GlobScope("n?inx/old/*").holds(f)), ["nginx", "nginx/old"]);
    assert.ok(narrowed >= GLOBS.length / 2, `${narrowed} of ${GLOBS.length}`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("globMatcher: a few answers written out (rotated siblings, folders, escapes, line breaks)", () => {
  const m = globMatcher("**/app*.log*");
  assert.deepEqual(
    ["app.log", "app.log.1", "app.log.2.gz", "x/app.log", "x/y/app-2.log.gz", "api.log", "app.txt"].map(m),
    [true, true, true, true, true, false, false],
  );
  assert.equal(globMatcher("*.log")("a/b.log"), false); // * never crosses /
  assert.equal(globMatcher("?")("/"), false);
  assert.equal(globMatcher("a[/]b")("a/b"), false); // a set never matches /
  assert.equal(globMatcher("a[!x]b")("a/b"), false);
  assert.equal(globMatcher("*.log")("line\nbreak.log"), true);
  assert.equal(globMatcher("?.log")("😀.log"), true); // one code point, two UTF-16 units
  assert.equal(globMatcher("a.log")("a.log"), true);
  assert.equal(globMatcher("a.log")("aXlog"), false); // . is itself
  assert.equal(globMatcher("(a|b).log")("a.log"), false); // regex syntax is itself
  assert.equal(globMatcher("(a|b).log")("(a|b).log"), true);
});

Deno.test("globMatcher refuses a malformed glob, saying where", () => {
  const refused = (glob: string, re: RegExp) =>
    assert.throws(() => globMatcher(glob), (e) => e instanceof TypeError && re.test(e.message), glob);
  refused("app[0-9.log", /^the \[ at character 4 is never closed by \]$/);
  refused("{a,b", /^the \{ at character 1 is never closed by \}$/);
  refused("x/{a,{b,c}", /^the \{ at character 3 is never closed/);
  refused("a.log\\", /^a lone \\ at character 6 ends the glob/);
  refused("[z-a].log", /^the range at character 2 runs backwards \(z-a\)$/);
  refused("[[:foo:]]", /^\[:foo:\] at character 2 is no class/);
  assert.throws(() => globMatcher("{a,b}".repeat(11)), RangeError); // 2^11 > MAX_EXPANSIONS
  assert.equal(MAX_EXPANSIONS, 1024);
  globMatcher("{a,b}".repeat(10)); // 1024: allowed
});

Deno.test("isGlob: an unescaped *, ?, [ or { makes a glob", () => {
  assert.deepEqual(
    ["nginx/*.log", "a?.log", "app.log.[12]", "{a,b}.log", "nginx/access.log", "a\\*.log", "a]b}.log", ""]
      .map(
        isGlob,
      ),
    [true, true, true, true, false, false, false, false],
  );
});

Deno.test("globDistance: the edits a name is from matching, wildcards free (values worked by hand)", () => {
  const cases: [string, string, number][] = [
    ["ngnix/*.log", "nginx/error.log", 2], // ngnix → nginx: two substitutions
    ["*.log", "app.log", 0],
    ["*.log", "app.lg", 1], // insert o
    ["*.log", "a/b.log", 0], // * may cross / for the distance
    ["app.log.[0-9]", "app.log.x", 1],
    ["app.log.[!0-9]", "app.log.1", 1],
    ["acess.log", "access.log", 1],
    ["acess.log", "nginx/access.log", 7], // six inserted for "nginx/", one for the c
    ["{foo,acess}.log", "access.log", 1], // the nearest choice
    ["?", "", 1],
    ["", "abc", 3],
    ["syslog", "😀syslog", 1], // one code point, not two units
  ];
  for (const [g, n, d] of cases) assert.equal(globDistance(g, n), d, `${g} ${n}`);
  assert.throws(() => globDistance("[a", "a"), TypeError);
  // Bounded: only the first DISTANCE_CHOICES brace choices count, and DISTANCE_CODE_POINTS of a name.
  const choices = Array.from({ length: DISTANCE_CHOICES + 1 }, (_, i) => `c${i}x`);
  assert.equal(globDistance(`{${choices.join(",")}}`, `c${DISTANCE_CHOICES - 1}x`), 0);
  assert.equal(globDistance(`{${choices.join(",")}}`, `c${DISTANCE_CHOICES}x`), 1);
  assert.equal(globDistance("a", "a" + "b".repeat(DISTANCE_CODE_POINTS)), DISTANCE_CODE_POINTS - 1);
});
