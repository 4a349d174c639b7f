/**
 * Issue #9: the folders of `src/` are layers, and imports go one way only — from a higher layer to a
 * lower one (or within a layer). The graph is Deno's own (`deno info --json main.ts`), type-only
 * imports included, so what this test sees is what the program loads. ARCHITECTURE.md names the layers.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** The layers, highest first. A module may import its own layer and those after it. */
export const LAYERS = ["cli", "server", "tools", "state", "source", "read", "guard", "core"] as const;

/**
 * What of `source/` the tools may import: the seam's modules directly in that folder (`backend.ts`, the
 * `*_query.ts` types, `log_source.ts`), never a backend's folder (`source/local/`, `source/clickhouse/`:
 * issue #25, a tool does not know which backend it has).
 */
const SEAM = /^source\/[a-z_]+\.ts$/;

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

interface Module {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
}

function graph(): Module[] {
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json", main], stderr: "piped" })
    .outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

/** `read/scanner.ts` for a module under src/, else null. */
function inSrc(specifier: string): string | null {
  if (!specifier.startsWith("file://")) return null;
  const path = fileURLToPath(specifier);
  return path.startsWith(SRC) ? path.slice(SRC.length) : null;
}

Deno.test("layers: every module under src/ sits in a layer folder, and no import goes up a layer", () => {
  const modules = graph();
  const seen = modules.map((m) => inSrc(m.specifier)).filter((p) => p !== null);
  assert.ok(seen.length > 30, `the graph holds the program's modules (${seen.length})`);
  const upward: string[] = [];
  const unlayered: string[] = [];
  const rank = (p: string) => LAYERS.indexOf(p.split("/")[0] as typeof LAYERS[number]);
  for (const m of modules) {
    const from = inSrc(m.specifier);
    if (from === null) continue;
    if (rank(from) < 0 || !from.includes("/")) unlayered.push(from);
    for (const d of m.dependencies ?? []) {
      for (const spec of [d.code?.specifier, d.type?.specifier]) {
        const to = spec ? inSrc(spec) : null;
        if (to === null) continue;
        if (rank(to) < rank(from)) upward.push(`${from} → ${to}`);
        if (from.startsWith("tools/") && to.startsWith("source/") && !SEAM.test(to)) {
          upward.push(`${from} → ${to} (tools reach logs through the seam in source/*.ts only)`);
        }
      }
    }
  }
  assert.deepEqual(unlayered, [], "modules outside the layer folders");
  assert.deepEqual([...new Set(upward)].sort(), [], "imports that go up a layer");
});

/**
 * The circles among the modules under src/ (type-only imports included): each strongly connected set
 * of more than one module (Tarjan's algorithm), sorted.
 */
function circles(modules: Module[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const m of modules) {
    const from = inSrc(m.specifier);
    if (from === null) continue;
    const to = (m.dependencies ?? []).flatMap((d) => [d.code?.specifier, d.type?.specifier])
      .map((s) => (s ? inSrc(s) : null)).filter((s): s is string => s !== null);
    edges.set(from, [...new Set(to)]);
  }
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      on.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) out.push(set.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out.sort();
}

Deno.test("layers: no import circle among the modules under src/ (issue #25, item 4)", () => {
  assert.deepEqual(circles(graph()), []);
  // The check sees a circle: one made up here is found.
  const fake = (name: string, to: string): Module => ({
    specifier: `file://${SRC}${name}`,
    dependencies: [{ code: { specifier: `file://${SRC}${to}` } }],
  });
  assert.deepEqual(circles([fake("a/x.ts", "a/y.ts"), fake("a/y.ts", "a/x.ts")]), [["a/x.ts", "a/y.ts"]]);
});

Deno.test("layers: no tool branches on its backend (issue #25: no `.table`, no `ctx.source`, no backend kind)", () => {
  const tools = fileURLToPath(new URL("../src/tools/", import.meta.url));
  const found: string[] = [];
  for (const e of Deno.readDirSync(tools)) {
    if (!e.name.endsWith(".ts") || e.name.endsWith("_test.ts")) continue;
    const lines = Deno.readTextFileSync(tools + e.name).split("\n");
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
      if (/\.table\b|ctx\.source\b|\.kind\s*===?\s*["'](files|clickhouse)/.test(code)) {
        found.push(`tools/${e.name}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, []);
});
