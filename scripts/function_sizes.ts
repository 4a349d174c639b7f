/**
 * Lists the functions and classes in `src/` longer than a screen (issue #25, item 4): functions over
 * {@linkcode FUNCTION_LINES} lines, classes over {@linkcode CLASS_LINES}, counted by the TypeScript
 * parser from the first line of the declaration to its last (doc comments not counted).
 *
 * Run: `deno run --allow-read scripts/function_sizes.ts [DIR]` (default `src`); prints one row per
 * long function (`lines  file:line  name`), longest first, and exits 1 when there is any.
 *
 * @module
 */

import ts from "npm:typescript@5.6.3";
import { join, relative } from "node:path";

/** The most lines a function may have: one screen (the project's standards). */
export const FUNCTION_LINES = 80;
/** The most lines a class may have (issue #25, item 4). */
export const CLASS_LINES = 300;

/** A function or class over its limit. */
export interface LongBlock {
  /** `function`, `method`, `arrow` or `class`. */
  kind: string;
  /** The name (`Class.method`, or `(anonymous)`). */
  name: string;
  /** The file, relative to the folder scanned. */
  file: string;
  /** 1-based line of its start. */
  line: number;
  /** Its lines, first to last. */
  lines: number;
}

/**
 * The functions and classes of one TypeScript source over their limits.
 *
 * @param file The file's name (for the rows).
 * @param text Its source.
 * @returns The long ones, in source order.
 */
export function longBlocks(file: string, text: string): LongBlock[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongBlock[] = [];
  const lineOf = (pos: number) => src.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node, owner: string) => {
    let kind = "";
    let name = "";
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      kind = "class";
      name = node.name?.text ?? "(anonymous)";
    } else if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) {
      kind = "function";
      name = node.name?.text ?? nameOfParent(node);
    } else if (ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isAccessor(node)) {
      kind = "method";
      name = `${owner}.${ts.isConstructorDeclaration(node) ? "constructor" : node.name.getText(src)}`;
    } else if (ts.isArrowFunction(node)) {
      kind = "arrow";
      name = nameOfParent(node);
    }
    if (kind) {
      const first = lineOf(node.getStart(src));
      const lines = lineOf(node.getEnd()) - first + 1;
      if (lines > (kind === "class" ? CLASS_LINES : FUNCTION_LINES)) {
        out.push({ kind, name, file, line: first, lines });
      }
    }
    ts.forEachChild(node, (c) => visit(c, kind === "class" ? name : owner));
  };
  visit(src, "");
  return out;
}

function nameOfParent(node: ts.Node): string {
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))) {
    return p.name.getText();
  }
  return "(anonymous)";
}

/** Every `.ts` file under `dir`, tests (`*_test.ts`) left out. */
function* sources(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* sources(p);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield p;
  }
}

/**
 * The long functions and classes under `dir`, longest first.
 *
 * @param dir The folder (read permission needed).
 * @returns The rows.
 */
export function longBlocksUnder(dir: string): LongBlock[] {
  const all: LongBlock[] = [];
  for (const f of sources(dir)) all.push(...longBlocks(relative(dir, f), Deno.readTextFileSync(f)));
  return all.sort((a, b) => b.lines - a.lines);
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? "src";
  const rows = longBlocksUnder(dir);
  for (const r of rows) {
    console.log(`${String(r.lines).padStart(4)}  ${r.file}:${r.line}  ${r.kind} ${r.name}`);
  }
  console.log(`${rows.length} over a screen (functions > ${FUNCTION_LINES} lines, classes > ${CLASS_LINES})`);
  if (rows.length) Deno.exit(1);
}
