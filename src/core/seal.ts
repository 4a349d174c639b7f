/**
 * Sealing: a JSON payload made opaque and tamper-evident for a client to hand back (a resume cursor), as
 * `PAYLOAD.MAC` — the payload the base64url (RFC 4648 §5, no padding) of its JSON, the MAC the
 * HMAC-SHA-256 (RFC 2104) of that base64url text under a key the client never sees, base64url (43
 * characters). The construction is `read/cursor.ts`'s, so that module can move onto this one and the
 * cursors already given out stay valid. A seal proves who made the payload, not what it means: the
 * caller still checks every field, and keeps kinds of payload apart by a field of its own (`k`).
 *
 * @module
 */

import { createHmac, timingSafeEqual } from "node:crypto";

/** base64url without padding (RFC 4648 §5). */
function b64url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** The HMAC-SHA-256 of `text` under `key`, base64url: 43 characters. */
function macOf(key: Uint8Array, text: string): string {
  return createHmac("sha256", key).update(text).digest("base64url");
}

/**
 * Seals a payload.
 *
 * @param payload Anything `JSON.stringify` writes (an object, usually).
 * @param key The key (32 bytes: `ToolContext.cursorKey`).
 * @returns `PAYLOAD.MAC`: only the characters `A-Z a-z 0-9 - _ .`.
 * @throws {TypeError} when the payload has no JSON form (undefined, a function, a cycle, a BigInt).
 * @example
 * ```ts
 * import { seal, unseal } from "./seal.ts";
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const text = seal({ k: "log_files", a: "app.log" }, key);
 * console.assert(JSON.stringify(unseal(text, key)) === '{"k":"log_files","a":"app.log"}');
 * ```
 */
export function seal(payload: unknown, key: Uint8Array): string {
  const json = JSON.stringify(payload);
  if (json === undefined) throw new TypeError("the payload has no JSON form");
  const body = b64url(new TextEncoder().encode(json));
  return `${body}.${macOf(key, body)}`;
}

/**
 * Opens a sealed payload: its MAC is checked first (compared in constant time), and only then is the
 * payload decoded.
 *
 * @param text What the client handed back.
 * @param key The key it was sealed with.
 * @returns The payload, or null when `text` was not sealed by `key` (another key, changed, damaged, not
 *   of the form at all).
 */
export function unseal(text: string, key: Uint8Array): unknown {
  const dot = text.indexOf(".");
  const body = text.slice(0, dot);
  const mac = text.slice(dot + 1);
  if (dot < 1 || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]{43}$/.test(mac)) return null;
  const enc = new TextEncoder();
  if (!timingSafeEqual(enc.encode(macOf(key, body)), enc.encode(mac))) return null;
  try {
    const bin = atob(body.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null; // sealed by the key, yet not base64url of UTF-8 JSON: not ours either
  }
}
