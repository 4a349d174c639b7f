/**
 * A cursor over a table (`core/seal.ts`): the tool, the call's hash, where it resumes, the window; the
 * position's tie-breaker hidden.
 *
 * @module
 */

import { createHmac } from "node:crypto";
import { ToolError } from "../../core/errors.ts";
import { seal, unseal } from "../../core/seal.ts";
import type { TableResume } from "./table_types.ts";

/** A sealed cursor over a table (`core/seal.ts`): the tool, the call's hash, the resume point, the window. */
export interface TableCursor {
  k: string;
  q: string;
  r: TableResume;
  t0: number | null;
  t1: number | null;
}

/**
 * A position's tie-breaker hidden in a cursor (the payload is sealed, not encrypted): XOR with 64 bits of
 * HMAC-SHA-256(key, nonce), a new nonce per cursor. Applied twice, it gives the hash back.
 */
function hideHash(h: string, key: Uint8Array, nonce: string): string {
  const mask = createHmac("sha256", key).update(`logpeek table position:${nonce}`).digest().readBigUInt64BE(
    0,
  );
  return (BigInt(h) ^ mask).toString();
}

/** Seals a table cursor, its position's hash hidden. */
export function sealTableCursor(c: TableCursor, key: Uint8Array): string {
  const n = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  const h = c.r.at.h;
  return seal({ ...c, n, r: { ...c.r, at: { ...c.r.at, h: h === null ? null : hideHash(h, key, n) } } }, key);
}

/**
 * Reads a table cursor back.
 *
 * @throws {ToolError} `invalid_cursor` for a cursor of another tool or call, or not made by this server.
 */
export function readTableCursor(text: string, tool: string, q: string, key: Uint8Array): TableCursor {
  const v = unseal(text, key) as Partial<TableCursor> | null;
  if (!v || typeof v !== "object" || typeof v.k !== "string") {
    throw new ToolError("invalid_cursor", "the cursor was not made by this server (or was changed)");
  }
  if (v.k !== tool) throw new ToolError("invalid_cursor", `the cursor belongs to ${v.k}, not ${tool}`);
  const r = v.r;
  const ok = v.q === q && r && typeof r === "object" && r.at && typeof r.at === "object" &&
    (r.at.t === null || Number.isSafeInteger(r.at.t)) &&
    (r.at.h === null || (typeof r.at.h === "string" && /^[0-9]{1,20}$/.test(r.at.h))) &&
    Number.isSafeInteger(r.at.d) && r.at.d >= 0 &&
    (r.last === undefined || r.last === null || Number.isSafeInteger(r.last)) &&
    (r.span === null || (Number.isSafeInteger(r.span) && r.span >= 0));
  if (!ok) {
    throw new ToolError(
      "invalid_cursor",
      v.q !== q
        ? "the cursor belongs to another call (other arguments): call with the arguments that gave it, or start again without cursor"
        : "the cursor was not made by this server (or was changed)",
    );
  }
  const n = (v as { n?: unknown }).n;
  if (typeof n !== "string" || !/^[0-9a-f]{16}$/.test(n)) {
    throw new ToolError("invalid_cursor", "the cursor was not made by this server (or was changed)");
  }
  const c = v as TableCursor;
  const h = c.r.at.h;
  return { ...c, r: { ...c.r, at: { ...c.r.at, h: h === null ? null : hideHash(h, key, n) } } };
}
