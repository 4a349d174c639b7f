import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { seal, unseal } from "./seal.ts";

const KEY = new Uint8Array(32).map((_, i) => i);
const OTHER = new Uint8Array(32).fill(7);

Deno.test("seal: base64url JSON and its HMAC-SHA-256, as openssl computes it", async () => {
  const payload = { k: "log_files", a: ["nginx/ä.log", 1700000000000], s: "modified" };
  const text = seal(payload, KEY);
  const [body, mac] = text.split(".");
  assert.match(text, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  // The body decodes (Buffer's base64url, an independent decoder) to the JSON.
  assert.equal(Buffer.from(body, "base64url").toString("utf8"), JSON.stringify(payload));
  // The MAC is what openssl's HMAC-SHA-256 of the body under the key gives.
  const hexKey = Array.from(KEY, (b) => b.toString(16).padStart(2, "0")).join("");
  const cmd = new Deno.Command("openssl", {
    args: ["dgst", "-sha256", "-mac", "HMAC", "-macopt", `hexkey:${hexKey}`, "-binary"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = cmd.stdin.getWriter();
  await w.write(new TextEncoder().encode(body));
  await w.close();
  const out = await cmd.output();
  assert.equal(Buffer.from(out.stdout).toString("base64url"), mac);
  assert.deepEqual(unseal(text, KEY), payload);
});

Deno.test("unseal: null for another key, a changed body or MAC, a malformed text; the MAC is checked first", () => {
  const text = seal({ k: "x", n: 1 }, KEY);
  assert.equal(unseal(text, OTHER), null);
  const [body, mac] = text.split(".");
  const forged = Buffer.from(JSON.stringify({ k: "x", n: 2 })).toString("base64url");
  assert.equal(unseal(`${forged}.${mac}`, KEY), null);
  assert.equal(unseal(`${body}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`, KEY), null);
  for (const bad of ["", ".", "abc", `.${mac}`, `${body}.`, `${body}.${mac}x`, `${body}!.${mac}`]) {
    assert.equal(unseal(bad, KEY), null, bad);
  }
  // Sealed by the key, but not JSON: null too.
  const notJson = Buffer.from("not json").toString("base64url");
  const resealed = `${notJson}.${createHmac("sha256", KEY).update(notJson).digest("base64url")}`;
  assert.equal(unseal(resealed, KEY), null);
  assert.throws(() => seal(undefined, KEY), TypeError);
});
