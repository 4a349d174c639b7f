/**
 * Values put into ClickHouse queries as literals (issue #14: ClickHouse 18.16 has no query parameters, so
 * the search text, level names, source names and times reach the server only through these).
 *
 * String literals follow ClickHouse's syntax ("Syntax → Literals → String": single quotes, backslash
 * escapes `\\`, `\'`, `\xHH`): a backslash and a quote are escaped, every other byte below 0x20 and 0x7F
 * is written as `\xHH`, and all else (UTF-8 included) stands as it is. Inside a quoted literal nothing is
 * syntax — not `--`, `/*`, `;`, `{…}` or a keyword — so no text can end the literal or add to the query.
 * Identifiers are never built from client input: they come from the root and
 * `LOGPEEK_CLICKHOUSE_COLUMNS`, checked as plain identifiers at start (`target.ts`), and are
 * quoted with backquotes.
 *
 * @module
 */

/**
 * A ClickHouse string literal holding exactly `text` (as UTF-8).
 *
 * @param text Any string (a lone surrogate becomes U+FFFD, as UTF-8 encoding does).
 * @returns `'…'`.
 * @example
 * ```ts
 * import { sqlString } from "./sql.ts";
 * console.assert(sqlString("it's a\\b\n") === "'it\\'s a\\\\b\\x0A'");
 * ```
 */
export function sqlString(text: string): string {
  let out = "'";
  for (const ch of text.toWellFormed()) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === "'") out += "\\'";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).toUpperCase().padStart(2, "0");
    else out += ch;
  }
  return out + "'";
}

/**
 * A quoted identifier.
 *
 * @param name A plain identifier (`[A-Za-z_][A-Za-z0-9_]*`).
 * @returns `` `name` ``.
 * @throws {RangeError} for anything else (names are checked at start; this is the last guard).
 */
export function sqlIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new RangeError(`not a plain identifier: ${name}`);
  return "`" + name + "`";
}

/**
 * A whole number as a literal.
 *
 * @param n A safe integer, or a decimal string of digits (a UInt64 beyond 2^53).
 * @returns Its decimal digits (a string one wrapped in `toUInt64('…')`).
 * @throws {RangeError} for anything else.
 */
export function sqlInt(n: number | string): string {
  if (typeof n === "number") {
    if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
    return String(n);
  }
  if (!/^[0-9]{1,20}$/.test(n)) throw new RangeError(`not a whole number: ${n}`);
  return `toUInt64('${n}')`;
}
