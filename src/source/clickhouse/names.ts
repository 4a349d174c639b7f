/**
 * A ClickHouse log's name is its source value (`<table>/<source>`): how a value's bytes become a name,
 * and which values are not served (one that holds a secret, one that is not valid UTF-8).
 *
 * @module
 */

import { redactLine } from "../../guard/redact.ts";

/** Why a log whose source value holds a secret is not served. */
export const SECRET_NAME =
  "the log's name (its source value) holds a secret, masked here; logpeek does not serve it";

/**
 * Why a log whose source value is not valid UTF-8 is not served: a name given to logpeek is Unicode text,
 * so no argument can say those bytes (and a literal of the name as shown, U+FFFD in place of each bad
 * byte, would match other rows or none).
 */
export const NOT_UTF8 =
  "the log's name (its source value) is not valid UTF-8 (each bad byte shown here as U+FFFD): " +
  "no name logpeek is given can say it exactly, so logpeek does not serve it";

/** A source value as listed: its text, and whether its bytes are valid UTF-8 (else U+FFFD for bad bytes). */
export interface SourceName {
  /** The text (U+FFFD for each byte that is not UTF-8). */
  s: string;
  /** Whether the bytes were valid UTF-8. */
  utf8: boolean;
}

/**
 * The bytes of a hex text (two digits a byte, as ClickHouse's `hex` writes them).
 *
 * @param hex Upper- or lower-case hex digits, an even number of them.
 * @returns The bytes.
 */
export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * A source value from its hex: its text exactly (a BOM kept), and whether it is valid UTF-8.
 *
 * @param hex The value as `hex(source)` gives it.
 * @returns The name.
 */
export function sourceName(hex: string): SourceName {
  const bytes = hexBytes(hex);
  try {
    return { s: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), utf8: true };
  } catch {
    return { s: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), utf8: false };
  }
}

/**
 * A log name as a glob that matches only itself (each glob character escaped), to rank names near it.
 *
 * @param name The name.
 * @returns The glob.
 */
export function literalGlob(name: string): string {
  return name.replace(/[\\*?[\]{}]/g, "\\$&");
}

/**
 * Whether a source value (or a name asked for) holds what logpeek masks as a secret (`guard/redact.ts`).
 *
 * @param name The value.
 * @returns True when a mask would apply.
 */
export function holdsSecret(name: string): boolean {
  return redactLine(name).count > 0;
}
