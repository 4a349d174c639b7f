/**
 * Issue #9: the folders of `src/` are layers, and imports go one way only — from a higher layer to a
 * lower one (or within a layer). The graph is Deno's own (`deno info --json main.ts`), type-only
 * imports included, so what this test sees is what the program loads. ARCHITECTURE.md names the layers.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** The layers, highest first. A module may import its own layer and those after it. */
export const LAYERS = ["cli", "server", "tools", "state", "source", "read", "guard", "core"] as const;

/** The one file of `source/` the tools may import: the seam, not the local implementation. */
const SEAM = "source/log_source.ts";

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
        if (from.startsWith("tools/") && to.startsWith("source/") && to !== SEAM) {
          upward.push(`${from} → ${to} (tools reach logs through ${SEAM} only)`);
        }
      }
    }
  }
  assert.deepEqual(unlayered, [], "modules outside the layer folders");
  assert.deepEqual([...new Set(upward)].sort(), [], "imports that go up a layer");
});
