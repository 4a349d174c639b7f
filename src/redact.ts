/**
 * Masking secrets in log text before it reaches a result, an artifact or a trace (issue #3).
 *
 * Every pattern below keeps its quantifiers bounded and unnested: redaction runs on every returned
 * line, and on every line a regex search tests, so no input may make it slow.
 *
 * What a reader needs stays: the key name, the token's kind (its public prefix) and the line's shape;
 * only the secret value becomes `***`. Covered: `Authorization: Bearer …`/`Basic …`; `password=`,
 * `passwd=`, `pwd=`, `secret=`, `token=`, `api_key=` (and keys that end in them, such as
 * `client_secret` or `x-api-key`) in key=value, `key: value`, JSON and URL-query forms; credentials in
 * URLs (`scheme://user:pass@host`); JWTs; PEM private-key blocks (also across the lines of one
 * contiguous result); AWS access key ids and secret keys; GitHub, GitLab, Slack, Stripe and Google API
 * keys. Not masked: UUIDs, commit hashes, request ids, timestamps, IP addresses, or base64 that has no
 * known secret shape and no secret key name.
 *
 * @module
 */

/** The mask that replaces a secret value. */
export const MASK = "***";

/** Secret key names: the whole key, or its last `_`/`-`/`.` part(s), is one of these. */
const KEY =
  String.raw`[A-Za-z0-9_.-]{0,40}?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|` +
  String.raw`secret[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|session[_-]?id|credentials?)`;

/** Values that are not secrets even under a secret key name. */
const HARMLESS = /^(?:\*+|null|nil|<nil>|none|true|false|undefined|redacted|\[redacted\]|-|)$/i;

interface Rule {
  re: RegExp;
  /** Builds the replacement from the match's groups; returns the match unchanged to skip it. */
  mask: (m: string, ...groups: string[]) => string;
}

const keepPrefix = (prefixLen: number) => (m: string) => m.slice(0, prefixLen) + MASK;

const RULES: Rule[] = [
  // PEM private-key blocks within one line (JSON logs often hold them with \n escapes).
  {
    re: /(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----)/g,
    mask: (_m, a, b) => `${a}${MASK}${b}`,
  },
  // Authorization headers.
  {
    re:
      /\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(bearer|basic|token|digest)\s+([^\s"',;]+)/gi,
    mask: (m, k, sep, scheme, v) => (HARMLESS.test(v) ? m : `${k}${sep}${scheme} ${MASK}`),
  },
  { re: /\b(bearer)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi, mask: (_m, k) => `${k} ${MASK}` },
  // Credentials in URLs.
  {
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s:/@"']{0,200}):([^\s@/"']{1,200})@/gi,
    mask: (m, scheme, user, pass) => (HARMLESS.test(pass) ? m : `${scheme}${user}:${MASK}@`),
  },
  // Known token shapes (the public prefix stays).
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, mask: keepPrefix(3) },
  { re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g, mask: keepPrefix(4) },
  { re: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, mask: keepPrefix(4) },
  { re: /\bgithub_pat_[A-Za-z0-9_]{40,255}\b/g, mask: keepPrefix(11) },
  { re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, mask: keepPrefix(6) },
  { re: /\bxox[abprsoe]-[A-Za-z0-9-]{10,}\b/g, mask: keepPrefix(5) },
  { re: /(hooks\.slack\.com\/services\/)[A-Za-z0-9/]+/g, mask: (_m, p) => p + MASK },
  {
    re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
    mask: (m) => m.slice(0, m.indexOf("_", 3) + 1) + MASK,
  },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, mask: keepPrefix(4) },
  // AWS secret access keys, by their key names.
  {
    re:
      /\b(aws_secret_access_key|secret_access_key|SecretAccessKey)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})\b/g,
    mask: (_m, k, sep) => `${k}${sep}${MASK}`,
  },
  // An AWS secret key written after the word "secret" without a separator ("… secret wJalr…").
  {
    re: /\b(secret(?:[ _-]?access)?(?:[ _-]?key)?)(\s+)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    mask: (_m, k, sp) => `${k}${sp}${MASK}`,
  },
  // JSON: "password": "value" (also numbers).
  {
    re: new RegExp(String.raw`("${KEY}"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)`, "gi"),
    mask: (m, k, v) => {
      const inner = v.startsWith('"') ? v.slice(1, -1) : v;
      return HARMLESS.test(inner) || inner.endsWith(MASK) ? m : `${k}"${MASK}"`;
    },
  },
  // key=value, key: value, and URL queries (?token=…&).
  {
    re: new RegExp(
      String.raw`(^|[\s?&;,({\[]|\\")(${KEY})(\s*[=:]\s*|=)("[^"]*"|'[^']*'|[^\s&;,"')}\]]+)`,
      "gi",
    ),
    mask: (m, lead, k, sep, v) => {
      const inner = /^["']/.test(v) ? v.slice(1, -1) : v;
      if (HARMLESS.test(inner) || inner.endsWith(MASK) || /^[:=]/.test(inner)) return m;
      const q = /^["']/.test(v) ? v[0] : "";
      return `${lead}${k}${sep}${q}${MASK}${q}`;
    },
  },
];

/** A line of a PEM block's body: base64 (and header fields such as `Proc-Type:`), nothing else. */
const PEM_BODY = /^\s*(?:[A-Za-z0-9+/=]{1,80}|[A-Za-z-]+: .*)\s*$/;

/** One redacted text. */
export interface Redacted {
  /** The text with secrets masked. */
  text: string;
  /** How many secrets were masked. */
  count: number;
}

/**
 * Masks the secrets in one line of text.
 *
 * @param text The line (no line breaks expected, though JSON-escaped ones are fine).
 * @returns The masked text and how many secrets were masked.
 * @example
 * ```ts
 * import { redactLine } from "./redact.ts";
 * const r = redactLine("login ok user=bob password=hunter2 ip=10.0.0.1");
 * console.assert(r.text === "login ok user=bob password=*** ip=10.0.0.1" && r.count === 1);
 * ```
 */
export function redactLine(text: string): Redacted {
  let count = 0;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    text = text.replace(rule.re, (...args) => {
      const m = args[0] as string;
      const groups = args.slice(1, -2).map((g) => (g ?? "") as string);
      const out = rule.mask(m, ...groups);
      if (out !== m) count++;
      return out;
    });
  }
  return { text, count };
}

/**
 * A redactor for the lines of one result, in order. When the lines are contiguous in the log (a
 * tail), a PEM private-key block that spans several lines is masked from its BEGIN line to its END.
 */
export class LineRedactor {
  #inPem = false;
  /** Secrets masked so far. */
  count = 0;
  /**
   * @param enabled False for `--no-redact`: every line passes unchanged.
   * @param contiguous True when consecutive calls get consecutive lines of the log.
   */
  constructor(readonly enabled: boolean, readonly contiguous: boolean) {}

  /**
   * Masks one line.
   *
   * @param text The line's text.
   * @param cut True when the text is only the line's start.
   * @returns The text to show.
   */
  line(text: string, cut = false): string {
    if (!this.enabled) return text;
    if (this.#inPem) {
      const end = text.search(/-----END [A-Z ]*PRIVATE KEY-----/);
      if (end < 0 && !PEM_BODY.test(text)) {
        this.#inPem = false; // not a key's body after all: a line like any other
        return this.line(text, cut);
      }
      if (end < 0) {
        this.count++;
        return text.length ? MASK : text;
      }
      this.#inPem = false;
      this.count++;
      return MASK + text.slice(end);
    }
    const r = redactLine(text);
    this.count += r.count;
    if (cut) {
      const t = redactCutTail(r.text);
      this.count += t.count;
      r.text = t.text;
    }
    if (
      this.contiguous && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(r.text) &&
      !/PRIVATE KEY-----.*\*\*\*/.test(r.text)
    ) {
      const at = r.text.search(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
      const marker = r.text.slice(at).match(/-----BEGIN [A-Z ]*PRIVATE KEY-----/)![0];
      const rest = r.text.slice(at + marker.length);
      this.#inPem = true;
      if (rest.trim()) {
        this.count++;
        return r.text.slice(0, at) + marker + MASK;
      }
    }
    return r.text;
  }
}

const CUT_TAIL =
  /(gh[pousr]_|github_pat_|glpat-|xox[abprsoe]-|[sr]k_(?:live|test)_|AKIA|ASIA|AIza|eyJ)[A-Za-z0-9_.+/=-]*$/;

/**
 * For a line cut to its first characters: masks a known token shape whose start is at the very end,
 * where the cut left it too short for {@linkcode redactLine} to know it.
 *
 * @param text The cut text (already redacted).
 * @returns The text and 1 when a tail was masked, else 0.
 */
export function redactCutTail(text: string): Redacted {
  const m = CUT_TAIL.exec(text);
  if (!m || m[0].length === m[1].length || m[0].endsWith(MASK)) return { text, count: 0 };
  return { text: text.slice(0, m.index) + m[1] + MASK, count: 1 };
}
