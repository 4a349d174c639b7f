import assert from "node:assert/strict";
import { COUNT_STOPPED, countStopped, LINK_OUT, listLogs } from "./list_logs.ts";
import { openLog } from "./log_file.ts";
import { openRoots } from "./roots.ts";
import { ToolError } from "../../core/errors.ts";
import { gzipSync } from "node:zlib";
import type { ListKey, ListOptions, LogEntry, LogList } from "../log_source.ts";

const IS_ROOT = Deno.uid() === 0;

Deno.test({
  name: "listLogs agrees with openLog: a link to a file in a folder another user could swap is not listed",
  ignore: !IS_ROOT,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "logpeek-list-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    Deno.mkdirSync(`${dir}/shared/inner`, { recursive: true });
    Deno.chownSync(`${dir}/shared`, 65534, 65534); // nobody could swap 'inner'
    Deno.writeTextFileSync(`${dir}/shared/inner/app.log`, "x\n");
    Deno.writeTextFileSync(`${dir}/ok.log`, "x\n");
    Deno.symlinkSync("shared/inner/app.log", `${dir}/top.log`);
    Deno.symlinkSync("ok.log", `${dir}/alias.log`);
    const roots = openRoots([dir], "/", { uids: [0], gids: [0] });
    const list = await listLogs(roots, { limit: 1000 });
    assert.deepEqual(list.files.map((f) => f.file), ["alias.log", "ok.log"]);
    assert.deepEqual([list.complete, list.not_listed], [false, 2]);
    assert.match(list.unreadable[0], /^shared\/inner: unsafe_path: /);
    assert.match(
      list.unreadable[1],
      /^top\.log: unsafe_path: top\.log is not read: the folder .*shared is owned by user 65534/,
    );
    await assert.rejects(() => openLog(roots, "top.log"), (e: ToolError) => e.kind === "unsafe_path");
    for (const f of list.files) (await openLog(roots, f.file)).close();
  },
});

Deno.test("listLogs: links out (dangling or not) are refused by name; a dangling link inside is no log", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list2-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
  Deno.mkdirSync(`${base}/logs`);
  Deno.writeTextFileSync(`${base}/secret`, "s\n");
  Deno.writeTextFileSync(`${base}/logs/a.log`, "2024-05-01 INFO a\n");
  Deno.writeFileSync(`${base}/logs/b.log.xz`, new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]));
  Deno.symlinkSync("../secret", `${base}/logs/out`);
  Deno.symlinkSync("../missing", `${base}/logs/out-dangling`);
  Deno.symlinkSync("missing", `${base}/logs/in-dangling`);
  const list = await listLogs(openRoots([`${base}/logs`], "/"), { limit: 1000 });
  assert.deepEqual(list.files.map((f) => [f.file, f.format, f.unsupported]), [
    ["a.log", "text", null],
    [
      "b.log.xz",
      "xz",
      `xz-compressed; run \`xz -dc '${Deno.realPathSync(base)}/logs/b.log.xz'\` outside logpeek`,
    ],
  ]);
  assert.deepEqual(list.unreadable, [`out: ${LINK_OUT}`, `out-dangling: ${LINK_OUT}`]);
  assert.deepEqual([list.complete, list.not_listed], [false, 2]);
});

Deno.test("listLogs: a FIFO in the root is named as not listed (not a regular file), not passed over in silence", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list-fifo-" });
  try {
    Deno.writeTextFileSync(`${base}/a.log`, "2024-05-01 INFO a\n");
    const made = new Deno.Command("mkfifo", { args: [`${base}/pipe.log`] }).outputSync();
    assert.ok(made.success, "mkfifo");
    const list = await listLogs(openRoots([base], "/"), { limit: 1000 });
    assert.deepEqual(list.files.map((f) => f.file), ["a.log"]);
    assert.deepEqual(list.unreadable, [
      "pipe.log: not_a_file: not a regular file (a FIFO, socket or device)",
    ]);
    assert.deepEqual([list.complete, list.not_listed], [false, 1]);
    // A glob that leaves it out does not name it.
    const only = await listLogs(openRoots([base], "/"), { limit: 1000, glob: "a.*" });
    assert.deepEqual([only.files.length, only.unreadable, only.complete], [1, [], true]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs: past the cap every file is counted (find agrees); a count cut by its budget says it is a lower bound", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list3-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
  for (const d of ["a", "b"]) {
    Deno.mkdirSync(`${base}/${d}`);
    for (let i = 0; i < 7; i++) Deno.writeTextFileSync(`${base}/${d}/${i}.log`, "x\n");
  }
  const find = new Deno.Command("find", { args: [base, "-type", "f"], stdout: "piped" }).outputSync();
  const total = new TextDecoder().decode(find.stdout).trim().split("\n").length;
  assert.equal(total, 14);
  const roots = openRoots([base], "/");
  const list = await listLogs(roots, { limit: 3 });
  assert.deepEqual([list.files.length, list.not_listed, list.complete, list.unreadable], [
    3,
    total - 3,
    false,
    [],
  ]);
  // A budget already spent: the walk stops at the first file past the cap, and says so.
  const cut = await listLogs(roots, { limit: 3 }, -1);
  assert.deepEqual([cut.files.length, cut.not_listed, cut.complete], [3, 1, false]);
  assert.deepEqual(cut.unreadable, [countStopped(-1)]);
  assert.ok(cut.unreadable[0].startsWith(COUNT_STOPPED));
  assert.match(cut.unreadable[0], /not_listed is a lower bound/);
});

/** Files of a tree to page through: nested folders, names that sort differently by segment and whole. */
const PAGED = [
  "a.log",
  "a/x.log",
  "a/y/z.log",
  "a-b.log",
  "b/1.log",
  "b/10.log",
  "b/2.log.gz",
  "b/c/d/e.log",
  "c.log",
  "d/app.log",
  "d/app.log.1",
  "d/app.log.2",
  "z.log",
];

function pagedTree(): string {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-page-" });
  for (const [i, n] of PAGED.entries()) {
    Deno.mkdirSync(`${base}/${n}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${base}/${n}`, "x\n");
    const s = 1_700_000_000 + (i % 5) * 100; // times with ties: name order breaks them
    Deno.utimeSync(`${base}/${n}`, s, s);
  }
  return base;
}

/** `find -type f` under `base`: each file's name and modified time (seconds, find's %T@). */
function findFiles(base: string): { file: string; ms: number }[] {
  const out = new Deno.Command("find", {
    args: [base, "-type", "f", "-printf", "%T@ %P\\n"],
    stdout: "piped",
  })
    .outputSync();
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter((l) => l).map((l) => {
    const sp = l.indexOf(" ");
    return { file: l.slice(sp + 1), ms: Math.round(Number(l.slice(0, sp)) * 1000) };
  });
}

/** Name order, segment by segment in code-unit order (what `ls` of each folder, sorted, walks). */
const bySegments = (a: string, b: string) => {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
};
const byNewest = (a: { file: string; ms: number }, b: { file: string; ms: number }) =>
  b.ms - a.ms || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/** Every page of a listing, `limit` at a time, following `next`. */
async function allPages(
  roots: ReturnType<typeof openRoots>,
  opts: Omit<ListOptions, "after">,
): Promise<LogList[]> {
  const pages: LogList[] = [];
  let after: ListOptions["after"];
  for (;;) {
    const page = await listLogs(roots, { ...opts, after });
    pages.push(page);
    if (!page.next) return pages;
    after = page.next;
    assert.ok(pages.length < 100);
  }
}

Deno.test("listLogs pages by name and newest first, limit at a time: the pages together are find's files in order", async () => {
  const base = pagedTree();
  try {
    const found = findFiles(base);
    assert.equal(found.length, PAGED.length);
    const roots = openRoots([base], "/");
    for (const sort of ["name", "modified"] as const) {
      const want = sort === "name"
        ? found.map((f) => f.file).sort(bySegments)
        : [...found].sort(byNewest).map((f) => f.file);
      for (const limit of [1, 4, 13, 50]) {
        const pages = await allPages(roots, { sort, limit });
        assert.deepEqual(pages.flatMap((p) => p.files.map((f) => f.file)), want, `${sort} ${limit}`);
        let left = want.length;
        for (const p of pages) {
          assert.ok(p.files.length <= limit);
          left -= p.files.length;
          // Every file after the page is counted; complete only on the last page.
          assert.deepEqual([p.not_listed, p.complete, p.next === null], [left, left === 0, left === 0]);
        }
      }
      // The modified times are find's.
      const page = await listLogs(roots, { sort, limit: 50 });
      const ms = new Map(found.map((f) => [f.file, f.ms]));
      for (const f of page.files) assert.equal(f.modified_ms, ms.get(f.file), f.file);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs: files that come and go between pages (keyset paging): later pages list what is after the key now", async () => {
  const base = pagedTree();
  try {
    const roots = openRoots([base], "/");
    for (const sort of ["name", "modified"] as const) {
      const first = await listLogs(roots, { sort, limit: 5 });
      const key = first.next!;
      // After the first page: one listed file and one not yet listed are removed, one file is added
      // before the key and one after it (in either order).
      const gone = [first.files[1].file, sort === "name" ? "d/app.log.1" : "z.log"];
      for (const g of gone) Deno.removeSync(`${base}/${g}`);
      Deno.writeTextFileSync(`${base}/0-before.log`, "x\n");
      Deno.writeTextFileSync(`${base}/zz-after.log`, "x\n");
      const keyMs = key.modified_ms!;
      Deno.utimeSync(`${base}/0-before.log`, keyMs / 1000 + 50, keyMs / 1000 + 50); // newer than the key
      Deno.utimeSync(`${base}/zz-after.log`, keyMs / 1000 - 1, keyMs / 1000 - 1); // older
      const rest: string[] = [];
      for (let after: ListKey | null = key; after;) {
        const p = await listLogs(roots, { sort, limit: 5, after });
        rest.push(...p.files.map((f) => f.file));
        after = p.next;
      }
      // What find sees now, after the key in the order: exactly the later pages.
      const now = findFiles(base);
      const want = sort === "name"
        ? now.map((f) => f.file).sort(bySegments).filter((f) => bySegments(f, key.file) > 0)
        : now.sort(byNewest).filter((f) => byNewest(f, { file: key.file, ms: keyMs }) > 0).map((f) => f.file);
      assert.deepEqual(rest, want, sort);
      assert.ok(rest.includes("zz-after.log") && !rest.includes("0-before.log") && !rest.includes(gone[1]));
      for (const g of gone) Deno.writeTextFileSync(`${base}/${g}`, "x\n");
      Deno.removeSync(`${base}/0-before.log`);
      Deno.removeSync(`${base}/zz-after.log`);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs with a glob lists what bash's globstar expansion gives, in both orders, paged", async () => {
  const base = pagedTree();
  try {
    const roots = openRoots([base], "/");
    const ms = new Map(findFiles(base).map((f) => [f.file, f.ms]));
    for (const glob of ["**/app.log*", "*.log", "b/**", "{a,d}/*", "**/?.log", "a/**/*.log", "nothing*"]) {
      const script = `shopt -s globstar dotglob nullglob; cd "$1" || exit 9; ` +
        `for f in ${glob}; do [[ -f $f ]] && printf '%s\\0' "$f"; done; true`;
      const out = new Deno.Command("bash", { args: ["-c", script, "bash", base], stdout: "piped" })
        .outputSync();
      const bash = new TextDecoder().decode(out.stdout).split("\0").filter((s) => s);
      const byName = await allPages(roots, { glob, sort: "name", limit: 2 });
      assert.deepEqual(byName.flatMap((p) => p.files.map((f) => f.file)), [...bash].sort(bySegments), glob);
      assert.equal(byName[0].complete, bash.length <= 2, glob);
      const newest = await allPages(roots, { glob, sort: "modified", limit: 2 });
      assert.deepEqual(
        newest.flatMap((p) => p.files.map((f) => f.file)),
        bash.map((file) => ({ file, ms: ms.get(file)! })).sort(byNewest).map((f) => f.file),
        glob,
      );
    }
    await assert.rejects(() => listLogs(roots, { glob: "a/{b", limit: 5 }), TypeError);
    await assert.rejects(() => listLogs(roots, { limit: 0 }), RangeError);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs with a glob reports only the refusals that could hide a match", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list-glob-" });
  try {
    Deno.mkdirSync(`${base}/logs/app`, { recursive: true });
    Deno.mkdirSync(`${base}/logs/other`);
    Deno.writeTextFileSync(`${base}/secret.log`, "s\n");
    Deno.writeTextFileSync(`${base}/logs/app/a.log`, "x\n");
    Deno.symlinkSync("../../secret.log", `${base}/logs/app/out.log`);
    Deno.symlinkSync("../../secret.log", `${base}/logs/other/out.log`);
    const roots = openRoots([`${base}/logs`], "/");
    const app = await listLogs(roots, { glob: "app/*.log", limit: 10 });
    assert.deepEqual(app.files.map((f) => f.file), ["app/a.log"]);
    assert.deepEqual([app.complete, app.not_listed, app.unreadable], [false, 1, [
      `app/out.log: ${LINK_OUT}`,
    ]]);
    const a = await listLogs(roots, { glob: "app/a*", limit: 10 });
    assert.deepEqual([a.files.length, a.complete, a.not_listed, a.unreadable], [1, true, 0, []]);
    const any = await listLogs(roots, { glob: "**/out.log", limit: 10 });
    assert.deepEqual([any.files.length, any.not_listed], [0, 2]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs pages across several roots; a key for a root there is not is refused", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list-roots-" });
  try {
    for (const d of ["one", "two"]) {
      Deno.mkdirSync(`${base}/${d}/sub`, { recursive: true });
      for (const f of ["b.log", "a.log", "sub/c.log"]) Deno.writeTextFileSync(`${base}/${d}/${f}`, "x\n");
    }
    Deno.writeTextFileSync(`${base}/single.log`, "x\n");
    // Roots in the order given: two, single file, one.
    const roots = openRoots([`${base}/two`, `${base}/single.log`, `${base}/one`], "/");
    const want = [
      ...["a.log", "b.log", "sub/c.log"].map((f) => `two/${f}`),
      "single.log",
      ...["a.log", "b.log", "sub/c.log"].map((f) => `one/${f}`),
    ];
    for (const limit of [1, 2, 3]) {
      assert.deepEqual(
        (await allPages(roots, { limit })).flatMap((p) => p.files.map((f) => f.file)),
        want,
        `${limit}`,
      );
    }
    await assert.rejects(
      () => listLogs(roots, { limit: 2, after: { file: "three/a.log", modified_ms: null } }),
      (e: ToolError) => e.kind === "invalid_cursor" && /'three' is not one of the roots now/.test(e.message),
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs marks each entry readable or not, with the reason a reading tool would give", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list-read-" });
  try {
    Deno.writeTextFileSync(`${base}/a.log`, "2024-05-01 INFO a\n");
    Deno.writeFileSync(`${base}/b.log.gz`, gzipSync(new TextEncoder().encode("2024-05-01 INFO b\n")));
    Deno.writeFileSync(`${base}/c.log.xz`, new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]));
    Deno.writeFileSync(`${base}/d.log`, new Uint8Array([0xff, 0xfe, 0x61, 0, 0x0a, 0]));
    Deno.writeTextFileSync(`${base}/e.log`, "secret\n");
    Deno.chmodSync(`${base}/e.log`, 0o000);
    const roots = openRoots([base], "/");
    const list = await listLogs(roots, { limit: 10 });
    const row = (
      f: LogEntry,
    ) => [f.file, f.format, f.compression, f.readable, f.reason?.split(":")[0] ?? null];
    const want: unknown[][] = [
      ["a.log", "text", null, true, null],
      ["b.log.gz", "gzip", "gzip", true, null],
      ["c.log.xz", "xz", null, false, "unsupported_format"],
      ["d.log", "utf-16le", null, false, "unsupported_encoding"],
    ];
    assert.deepEqual(list.files.slice(0, 4).map(row), want);
    assert.equal(list.files[2].reason, `unsupported_format: ${list.files[2].unsupported}`);
    // Each reason is the error the reading tool answers.
    for (const f of list.files.slice(2, 4)) {
      await assert.rejects(
        () => openLog(roots, f.file),
        (e: ToolError) => f.reason!.startsWith(`${e.kind}: `),
      );
    }
    if (Deno.uid() === 0) {
      console.error("SKIP: the permission case (chmod 000): running as root, who may read any file");
      assert.equal(list.files[4].readable, true);
    } else {
      assert.deepEqual(row(list.files[4]), ["e.log", null, null, false, "permission_denied"]);
      await assert.rejects(() => openLog(roots, "e.log"), (e: ToolError) => e.kind === "permission_denied");
    }
    // readableOnly: the unreadable ones are named instead of listed.
    const only = await listLogs(roots, { limit: 10, readableOnly: true, sort: "modified" });
    assert.deepEqual(only.files.map((f) => f.readable), only.files.map(() => true));
    assert.equal(only.not_listed, Deno.uid() === 0 ? 2 : 3);
    assert.deepEqual(
      only.unreadable.map((u) => u.split(":")[0]).sort(),
      Deno.uid() === 0 ? ["c.log.xz", "d.log"] : ["c.log.xz", "d.log", "e.log"],
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

/**
 * `folders` folders of `files` logs, modified at whole seconds drawn from a seeded generator (ties
 * across folders, which the name breaks); the newest in the last folder (issue #22: the newest of 200,000
 * was in the last folder, which a walk cut by its count budget never reached).
 */
function wideTree(folders: number, files: number): string {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-wide-" });
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let d = 0; d < folders; d++) {
    const dir = `${base}/d${String(d).padStart(3, "0")}`;
    Deno.mkdirSync(dir);
    for (let f = 0; f < files; f++) {
      const p = `${dir}/f${String(f).padStart(4, "0")}.log`;
      Deno.writeTextFileSync(p, "x\n");
      const t = 1_700_000_000 + Math.floor(rand() * 5000);
      Deno.utimeSync(p, t, t);
    }
  }
  const last = `${base}/d${String(folders - 1).padStart(3, "0")}/f0000.log`;
  Deno.utimeSync(last, 1_700_009_999, 1_700_009_999);
  return base;
}

const newestFirst = (a: { file: string; ms: number }, b: { file: string; ms: number }) =>
  b.ms - a.ms || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

Deno.test("listLogs newest first: the count past the cap never cuts the walk (issue #22); the page is find's newest", async () => {
  const base = wideTree(40, 50);
  try {
    const want = findFiles(base).sort(newestFirst).slice(0, 7);
    // countMs 0 stopped the old walk as soon as the heap was full: the folders after were never seen.
    const list = await listLogs(openRoots([base], "/"), { sort: "modified", limit: 7 }, 0);
    assert.deepEqual(list.files.map((f) => [f.file, f.modified_ms]), want.map((f) => [f.file, f.ms]));
    assert.equal(list.files[0].file, "d039/f0000.log");
    assert.deepEqual([list.complete, list.not_listed, list.unreadable], [false, 2000 - 7, []]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs newest first: a walk cut by its deadline lists nothing, goes on where it stopped, and the pages joined are find's order", async () => {
  const base = wideTree(30, 40);
  try {
    const roots = openRoots([base], "/");
    const want = findFiles(base).sort(newestFirst);
    const got: { file: string; ms: number | null }[] = [];
    let after: ListKey | undefined;
    let calls = 0;
    let stops = 0;
    for (;;) {
      let resume: LogList["walk"];
      let page: LogList;
      do {
        // A deadline already past: each call walks MIN_ENTRIES entries, then stops.
        page = await listLogs(roots, { sort: "modified", limit: 100, after, resume, deadline: 0 });
        calls++;
        if (page.walk) {
          stops++;
          assert.deepEqual([page.files, page.complete, page.next], [[], false, null]);
          assert.match(
            page.unreadable.at(-1)!,
            /^\(the count\): the walk stopped at its time budget after comparing \d+ files/,
          );
          assert.ok(!resume || page.walk.seen > resume.seen, "each call gets further");
        }
        resume = page.walk;
      } while (resume);
      got.push(...page.files.map((f) => ({ file: f.file, ms: f.modified_ms })));
      assert.equal(page.complete, page.next === null);
      if (!page.next) break;
      after = page.next;
      assert.ok(calls < 1000);
    }
    assert.ok(stops >= 12 * 4, `${stops} stops`); // 1200 files, 256 entries a call, 12 pages
    assert.deepEqual(got, want);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("listLogs by name: a walk cut by its deadline lists what it walked and goes on after it; the pages joined are find's", async () => {
  const base = wideTree(12, 100);
  try {
    const roots = openRoots([base], "/");
    const want = findFiles(base).map((f) => f.file).sort(bySegments);
    const got: string[] = [];
    let after: ListKey | undefined;
    let pages = 0;
    do {
      const page = await listLogs(roots, { limit: 1000, after, deadline: 0 });
      got.push(...page.files.map((f) => f.file));
      assert.equal(page.complete, page.next === null);
      after = page.next ?? undefined;
      assert.ok(++pages < 100);
    } while (after);
    assert.ok(pages >= 4, `${pages} pages`); // 1200 files, 256 entries a call (and the folders)
    assert.deepEqual(got, want);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

/**
 * The names bash's pathname expansion (`globstar`, `dotglob`, `nullglob`: the rules `glob.ts` follows) gives
 * for `glob` in `dir`, in code-unit order.
 */
function bashGlob(dir: string, glob: string): string[] {
  const out = new Deno.Command("bash", {
    args: ["-O", "globstar", "-O", "dotglob", "-O", "nullglob", "-c", `for f in ${glob}; do echo "$f"; done`],
    cwd: dir,
    stdout: "piped",
  }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "").sort();
}

Deno.test("listLogs with a glob of any form names as not listed only entries it matches or folders that may hold one", async () => {
  const base = Deno.makeTempDirSync({ prefix: "logpeek-list-scope-" });
  try {
    const root = `${base}/root`;
    const mirror = `${base}/mirror`; // the same names, every link replaced by what it leads to
    Deno.mkdirSync(`${base}/outside`);
    // What the folder out holds (never read), and the mirror's copy of it, for bash to match.
    const outside = ["passwd", "x.gz", "x.jsonl", "access.log", "x.log"];
    for (const f of outside) Deno.writeTextFileSync(`${base}/outside/${f}`, "x\n");
    for (const d of [root, mirror]) {
      Deno.mkdirSync(`${d}/sub`, { recursive: true });
      Deno.mkdirSync(`${d}/sub1`);
      for (const f of ["app.log", "java.log", "app.jsonl", "sub1/b.log"]) {
        Deno.writeTextFileSync(`${d}/${f}`, "2024-05-01 INFO x\n");
      }
      Deno.writeFileSync(`${d}/a.gz`, gzipSync(new TextEncoder().encode("2024-05-01 INFO x\n")));
    }
    Deno.symlinkSync(`${base}/outside/passwd`, `${root}/sub/passwd.log`); // a file out
    Deno.symlinkSync(`${base}/outside`, `${root}/ext`); // a folder out
    Deno.writeTextFileSync(`${mirror}/sub/passwd.log`, "root:x:0:0\n");
    Deno.mkdirSync(`${mirror}/ext`);
    for (const f of outside) Deno.writeTextFileSync(`${mirror}/ext/${f}`, "x\n");
    // A folder refused for its parent (another user could swap it: `confine.ts`), as root only; the
    // mirror's copy holds what it might.
    const refused = IS_ROOT ? ["shared/inner"] : [];
    if (!IS_ROOT) console.log("SKIP the refused folder (chown): not running as root");
    for (const f of refused) {
      Deno.mkdirSync(`${root}/${f}`, { recursive: true });
      Deno.chownSync(`${root}/shared`, 65534, 65534);
      Deno.mkdirSync(`${mirror}/${f}`, { recursive: true });
      for (const o of outside) Deno.writeTextFileSync(`${mirror}/${f}/${o}`, "x\n");
    }
    const roots = openRoots([root], "/", IS_ROOT ? { uids: [0], gids: [0] } : undefined);
    const globs = [
      "**/*.gz",
      "{app,java}.log",
      "app.{log,jsonl}",
      "**/*.jsonl",
      "**/access.log",
      "**/*.log",
      "sub[0-9]/*.log",
      "su?/*.log",
      "*/passwd*",
      "{sub,ext}/*",
      "*.log",
    ];
    for (const glob of globs) {
      const matched = bashGlob(mirror, glob);
      // What cannot be read: the link out a name is, or the folder (out, or refused) a name is under.
      const under = (f: string) => ["ext", ...refused].find((d) => f.startsWith(`${d}/`));
      const out = new Set(
        matched.filter((f) => f === "sub/passwd.log" || under(f)).map((f) => under(f) ?? f),
      );
      const read = matched.filter((f) => f !== "sub/passwd.log" && !under(f));
      const list = await listLogs(roots, { glob, limit: 100 });
      assert.deepEqual(list.files.map((f) => f.file), read, glob);
      assert.deepEqual(list.unreadable.map((u) => u.split(": ")[0]), [...out].sort(), glob);
      for (const u of list.unreadable) {
        assert.ok(u.endsWith(LINK_OUT) || u.startsWith("shared/inner: unsafe_path: "), `${glob}: ${u}`);
      }
      assert.deepEqual([list.not_listed, list.complete], [out.size, out.size === 0], glob);
      // As the reading tools ask (`matching_logs.ts`): readable only, newest first.
      const newest = await listLogs(roots, { glob, limit: 100, sort: "modified", readableOnly: true });
      assert.deepEqual(newest.files.map((f) => f.file).sort(), read, glob);
      assert.deepEqual([newest.unreadable, newest.complete], [list.unreadable, list.complete], glob);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
