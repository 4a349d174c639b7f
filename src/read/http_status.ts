/**
 * An access log's level derived from each line's HTTP status (issue #23 item 2), offered beside the
 * levels written in lines and never mixed with them: access logs write no level, and `log_levels`
 * counts their lines as UNKNOWN.
 *
 * The rule ({@linkcode STATUS_RULE}): 5xx ERROR (the server failed), 4xx WARN (the client's request
 * failed), 1xx–3xx INFO; a number outside 100–599 is no status. lnav derives its `access_log` and
 * `w3c_log` levels from the same status, but calls 4xx `error` too.
 *
 * Where a line's status is ({@linkcode StatusLayout}), learnt per file from a sample of its first lines
 * ({@linkcode detectStatus}), each from the program's own documentation of its default format:
 * - `request`: the number after the quoted request line: NCSA common and combined log format (Apache
 *   httpd's `%h %l %u %t "%r" %>s %b`, nginx's `combined`), Envoy's default access log
 *   (`[%START_TIME%] "%REQ(:METHOD)% … %PROTOCOL%" %RESPONSE_CODE% …`), Traefik's common format;
 * - `haproxy`: HAProxy's HTTP log format, the status after the timers `TR/Tw/Tc/Tr/Ta`;
 * - `uwsgi`: uWSGI's request log, `(HTTP/1.1 200)`;
 * - `w3c`: a W3C extended log (IIS), the `sc-status` column named by the last `#Fields:` directive;
 * - `json`: a JSON access log's status field: `status` (nginx `log_format … escape=json`, Caddy),
 *   `status_code`, `statusCode`, `response_code` (Envoy's JSON), `DownstreamStatus` (Traefik's JSON),
 *   `EdgeResponseStatus` (Cloudflare), `http.response.status_code` / `http.status_code` (OpenTelemetry,
 *   Elastic ECS), `sc-status`.
 *
 * @module
 */

import type { ReadableLog } from "./readable_log.ts";
import { logHead } from "./scan_source.ts";

/** How a status maps to a level: stated in every answer that offers derived levels. */
export const STATUS_RULE = "5xx ERROR, 4xx WARN, 1xx-3xx INFO";

/** Where a file's lines carry their HTTP status (see the module's doc). */
export type StatusLayout =
  | { kind: "request" }
  | { kind: "haproxy" }
  | { kind: "uwsgi" }
  | { kind: "w3c"; column: number }
  | { kind: "json"; key: string };

/** JSON fields that hold a response's HTTP status, each as `"key"` bytes (see the module's doc). */
const JSON_KEYS = [
  "status",
  "status_code",
  "statusCode",
  "response_code",
  "DownstreamStatus",
  "EdgeResponseStatus",
  "http.response.status_code",
  "http.status_code",
  "sc-status",
];

/** How many lines of a file's start {@linkcode detectStatus} reads. */
export const SAMPLE_LINES = 200;

/** The level code (`level.ts` LEVELS: INFO 2, WARN 4, ERROR 5) of a status, or -1 for none (0). */
export function statusLevel(status: number): number {
  return status >= 500 ? 5 : status >= 400 ? 4 : status >= 100 ? 2 : -1;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** A status (100–599) of three digits at `i`, ended by a blank, `)`, `"`, `,`, `}` or the line's end; else 0. */
function threeDigits(buf: Uint8Array, i: number, end: number): number {
  if (i + 3 > end || !isDigit(buf[i]) || !isDigit(buf[i + 1]) || !isDigit(buf[i + 2])) return 0;
  const after = i + 3 < end ? buf[i + 3] : 32;
  if (after !== 32 && after !== 9 && after !== 0x29 && after !== 0x22 && after !== 0x2c && after !== 0x7d) {
    return 0;
  }
  const n = (buf[i] - 48) * 100 + (buf[i + 1] - 48) * 10 + (buf[i + 2] - 48);
  return n >= 100 && n <= 599 ? n : 0;
}

/** The end of the quoted field whose opening `"` is at `q` (the index of its closing quote), or -1. */
function closingQuote(buf: Uint8Array, q: number, end: number): number {
  for (let i = q + 1; i < end; i++) {
    if (buf[i] === 92) i++; // `\"` inside (Apache escapes a quote in the request)
    else if (buf[i] === 34) return i;
  }
  return -1;
}

/**
 * `request`: the status after the first quoted field that a blank and three digits follow. With
 * `strict` (detecting), that field must be a request line (a method in capitals, a blank, and ` HTTP/`)
 * or `"-"` (nginx's, for a connection that sent none).
 */
function requestStatus(buf: Uint8Array, s: number, e: number, strict: boolean): number {
  for (let q = byteIn(buf, 34, s, e); q >= 0; q = byteIn(buf, 34, q + 1, e)) {
    const close = closingQuote(buf, q, e);
    if (close < 0) return 0;
    const dash = close === q + 2 && buf[q + 1] === 45; // `"-"`: nginx's request line when none came
    if (buf[close + 1] === 32 && (!strict || dash || requestLine(buf, q + 1, close))) {
      const n = threeDigits(buf, close + 2, e);
      if (n || strict) return n;
    }
    q = close;
  }
  return 0;
}

const HTTP = new TextEncoder().encode(" HTTP/");

/** `GET /x HTTP/1.1` in buf[a, b): capitals, a blank, then ` HTTP/` before the end. */
function requestLine(buf: Uint8Array, a: number, b: number): boolean {
  let i = a;
  while (i < b && buf[i] >= 65 && buf[i] <= 90) i++;
  if (i - a < 3 || i - a > 10 || buf[i] !== 32) return false;
  const at = indexOfBytes(buf, HTTP, i, b);
  return at > i;
}

/**
 * The first `b` in buf[from, end), or -1. A loop bounded by the line, not `indexOf` (which runs on to the
 * buffer's end when the byte is rare: issue #22).
 */
function byteIn(buf: Uint8Array, b: number, from: number, end: number): number {
  for (let i = from; i < end; i++) if (buf[i] === b) return i;
  return -1;
}

/** The first `p` wholly inside buf[from, end), or -1. */
function indexOfBytes(buf: Uint8Array, p: Uint8Array, from: number, end: number): number {
  for (
    let i = byteIn(buf, p[0], from, end);
    i >= 0 && i + p.length <= end;
    i = byteIn(buf, p[0], i + 1, end)
  ) {
    let k = 1;
    while (k < p.length && buf[i + k] === p[k]) k++;
    if (k === p.length) return i;
  }
  return -1;
}

/** `haproxy`: a field of five slash-separated numbers (`10/0/30/69/109`, `-1` or `+` allowed), a blank, a status. */
function haproxyStatus(buf: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    if (buf[i] !== 32 || i + 1 >= e) continue;
    let j = i + 1;
    let parts = 0;
    while (parts < 5) {
      if (buf[j] === 43 || buf[j] === 45) j++; // `+` (logasap), `-1` (aborted)
      const a = j;
      while (j < e && isDigit(buf[j])) j++;
      if (j === a) break;
      parts++;
      if (parts < 5 && buf[j] !== 47) break;
      if (parts < 5) j++;
    }
    if (parts === 5 && buf[j] === 32) {
      const n = threeDigits(buf, j + 1, e);
      if (n) return n;
    }
  }
  return 0;
}

const UWSGI = new TextEncoder().encode("(HTTP/");

/** `uwsgi`: `(HTTP/1.1 200)`. */
function uwsgiStatus(buf: Uint8Array, s: number, e: number): number {
  const at = indexOfBytes(buf, UWSGI, s, e);
  if (at < 0) return 0;
  const sp = byteIn(buf, 32, at, e);
  return sp > 0 && sp < e && buf[sp + 4] === 0x29 ? threeDigits(buf, sp + 1, e) : 0;
}

/** `json`: `"key": 200` or `"key":"200"`. */
function jsonStatus(buf: Uint8Array, s: number, e: number, key: Uint8Array): number {
  for (let at = indexOfBytes(buf, key, s, e); at >= 0; at = indexOfBytes(buf, key, at + 1, e)) {
    if (at > s && buf[at - 1] !== 0x7b && buf[at - 1] !== 0x2c && buf[at - 1] !== 32) continue;
    let j = at + key.length;
    while (buf[j] === 32) j++;
    if (buf[j] !== 58) continue;
    j++;
    while (buf[j] === 32) j++;
    if (buf[j] === 34) j++;
    const n = threeDigits(buf, j, e);
    if (n) return n;
  }
  return 0;
}

/** 1 for the bytes that end a W3C field (a blank, a tab). */
const W3C_BLANK = new Uint8Array(256);
W3C_BLANK[32] = W3C_BLANK[9] = 1;

/**
 * The status in field `column` of a W3C line (blank-separated fields; a quoted field may hold blanks;
 * `"200"` unquoted), or 0 when that field is not three digits (or the line has fewer fields). The walk
 * over the fields before it looks at four bytes a step (issue #26: every line of a log is walked).
 */
function w3cStatus(buf: Uint8Array, s: number, e: number, column: number): number {
  let i = s;
  for (let k = 0;; k++) {
    while (i < e && W3C_BLANK[buf[i]] === 1) i++;
    if (i >= e) return 0;
    const a = i;
    if (buf[i] === 34) {
      i++;
      while (i < e && buf[i] !== 34) i++;
      i++;
    } else {
      i++;
      while (
        i + 4 <= e &&
        (W3C_BLANK[buf[i]] | W3C_BLANK[buf[i + 1]] | W3C_BLANK[buf[i + 2]] | W3C_BLANK[buf[i + 3]]) === 0
      ) i += 4;
      while (i < e && W3C_BLANK[buf[i]] === 0) i++;
    }
    if (k === column) {
      const quoted = buf[a] === 34;
      const from = quoted ? a + 1 : a, to = quoted ? Math.min(i, e) - 1 : Math.min(i, e);
      return to - from === 3 ? threeDigits(buf, from, to) : 0;
    }
  }
}

const FIELDS = new TextEncoder().encode("#Fields:");
const utf8 = new TextDecoder();

/** The names of a `#Fields:` directive line, or null when it is none. */
function fieldNames(buf: Uint8Array, s: number, e: number): string[] | null {
  if (e - s < FIELDS.length || indexOfBytes(buf, FIELDS, s, s + FIELDS.length) !== s) return null;
  return utf8.decode(buf.subarray(s + FIELDS.length, e)).trim().split(/\s+/);
}

/** The `sc-status` column of a `#Fields:` directive line, or -1 (none, or no such directive). */
function fieldsColumn(buf: Uint8Array, s: number, e: number): number {
  return fieldNames(buf, s, e)?.indexOf("sc-status") ?? -1;
}

/** What a W3C entry's leading field must look like ({@linkcode leadOf}): anything, a date, a time, an address. */
const ANY = 0, DATE = 1, TIME = 2, ADDRESS = 3;

/**
 * The shapes the first two fields of a W3C entry must have, by its directive's names: a `date` field is
 * `yyyy-mm-dd`, a `time` field `hh:mm[:ss[.s…]]`, quoted or not (the W3C draft, WD-logfile-960323,
 * https://www.w3.org/TR/WD-logfile.html: `<date> = 4<digit> "-" 2<digit> "-" 2<digit>`, `<time> =
 * 2<digit> ":" 2<digit> [":" 2<digit> ["." *<digit>]]`; IIS's `date-local` and `time-local` alike), an
 * address field (`c-ip`, `s-ip`: a name ending in `-ip`) hex digits, dots and colons with a dot or a
 * colon among them (IPv4, IPv6), or `-`; other names, anything. Trailing ANYs are
 * dropped: an empty plan checks nothing. A line that does not fit is no entry of the log's W3C layout
 * (a line of another program in the same file: `2015-10-18 18:01:47,978 WARN …`), so it has no status.
 */
function leadOf(names: string[]): number[] {
  const lead = names.slice(0, 2).map((n) =>
    n === "date" || n === "date-local"
      ? DATE
      : n === "time" || n === "time-local"
      ? TIME
      : n.endsWith("-ip")
      ? ADDRESS
      : ANY
  );
  while (lead.length > 0 && lead[lead.length - 1] === ANY) lead.pop();
  return lead;
}

/**
 * By the shape of a W3C entry's first field ({@linkcode leadOf}; ANY has none): 1 for each byte an entry
 * line may start with: the shape's first bytes, a quote, a blank (before the field), `#` (a directive).
 */
const FIRST_BYTES = [ANY, DATE, TIME, ADDRESS].map((want) => {
  const t = new Uint8Array(256).fill(want === ANY ? 1 : 0);
  for (const c of '"# \t0123456789') t[c.charCodeAt(0)] = 1;
  if (want === ADDRESS) { for (const c of "abcdefABCDEF:.-") t[c.charCodeAt(0)] = 1; }
  return t;
});

/**
 * True when the line buf[s, e) surely carries no status by a W3C plan whose first-byte table is `first`
 * ({@linkcode FIRST_BYTES}): empty, a first byte no entry starts with, or, when the first field is a date,
 * a digit but no `dddd-dd-dd` and a blank. What {@linkcode leadFits} would find, at a few loads.
 */
function ruledOut(first: Uint8Array, buf: Uint8Array, s: number, e: number): boolean {
  const c = buf[s];
  if (s >= e || first[c] === 0) return true;
  return c >= 48 && c <= 57 && first === FIRST_BYTES[DATE] &&
    (e - s < 10 || buf[s + 4] !== 45 || buf[s + 7] !== 45 || (e - s > 10 && W3C_BLANK[buf[s + 10]] !== 1));
}

/** True when buf[i, i + n) are ASCII digits. */
function digits(buf: Uint8Array, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(buf[i + k])) return false;
  return true;
}

/** Where the field at `i` ends when it has the shape `want` ({@linkcode leadOf}), or -1. */
function leadEnd(buf: Uint8Array, i: number, e: number, want: number): number {
  if (want === ADDRESS) {
    if (i < e && buf[i] === 45) return i + 1; // `-`: none
    let j = i, sep = false;
    for (; j < e; j++) {
      const c = buf[j];
      if (c === 0x2e || c === 0x3a) sep = true; // `.`, `:`
      else if (!(isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) break; // a hex digit
    }
    return sep ? j : -1;
  }
  if (want === DATE) {
    return i + 10 <= e && digits(buf, i, 4) && buf[i + 4] === 45 && digits(buf, i + 5, 2) &&
        buf[i + 7] === 45 && digits(buf, i + 8, 2)
      ? i + 10
      : -1;
  }
  if (i + 5 > e || !digits(buf, i, 2) || buf[i + 2] !== 58 || !digits(buf, i + 3, 2)) return -1;
  let j = i + 5;
  if (j + 3 <= e && buf[j] === 58 && digits(buf, j + 1, 2)) {
    j += 3;
    if (j < e && buf[j] === 46) { do j++; while (j < e && isDigit(buf[j])); }
  }
  return j;
}

/** True when the line buf[s, e) fits the plan `lead` of {@linkcode leadOf}. */
function leadFits(buf: Uint8Array, s: number, e: number, lead: number[]): boolean {
  let i = s;
  for (const want of lead) {
    while (i < e && W3C_BLANK[buf[i]] === 1) i++;
    if (i >= e) return false;
    const quoted = buf[i] === 34;
    if (want === ANY) {
      if (quoted) {
        i++;
        while (i < e && buf[i] !== 34) i++;
        i++;
      } else while (i < e && W3C_BLANK[buf[i]] === 0) i++;
      continue;
    }
    let j = leadEnd(buf, quoted ? i + 1 : i, e, want);
    if (j < 0 || (quoted && buf[j++] !== 34) || (j < e && W3C_BLANK[buf[j]] !== 1)) return false;
    i = j;
  }
  return true;
}

/**
 * Reads each line's status by a file's layout, in order (a W3C `#Fields:` directive changes the column
 * for the lines after it, and what their first fields must look like: {@linkcode leadOf}).
 */
export class StatusReader {
  #layout: StatusLayout;
  readonly #key: Uint8Array | null;
  /** W3C: the shapes of an entry's first fields by the last directive read ({@linkcode leadOf}); none before one. */
  #lead: number[] = [];
  /** With a plan: 1 for each byte its line may start with ({@linkcode firstBytes}); null without one. */
  #first: Uint8Array | null = null;

  /** @param layout From {@linkcode detectStatus}. */
  constructor(layout: StatusLayout) {
    this.#layout = layout;
    this.#key = layout.kind === "json" ? new TextEncoder().encode(`"${layout.key}"`) : null;
  }

  /**
   * Null, or, for a W3C log whose last directive gives its entries' first field a shape
   * ({@linkcode leadOf}), a table of 256: 0 for a byte no line that may carry a status starts with (a
   * directive's `#` and blanks are 1), so a caller counts most other programs' lines at one load.
   */
  get firstBytes(): Uint8Array | null {
    return this.#first;
  }

  /**
   * The status of the line `buf[s, e)` (100–599), or 0 when it carries none.
   *
   * @param buf Holds the line (its first bytes, for a long one).
   */
  statusOf(buf: Uint8Array, s: number, e: number): number {
    const l = this.#layout;
    switch (l.kind) {
      case "request":
        return requestStatus(buf, s, e, false);
      case "haproxy":
        return haproxyStatus(buf, s, e);
      case "uwsgi":
        return uwsgiStatus(buf, s, e);
      case "json":
        return jsonStatus(buf, s, e, this.#key!);
      case "w3c": {
        if (buf[s] === 0x23) { // a directive
          const names = fieldNames(buf, s, e);
          const c = names?.indexOf("sc-status") ?? -1;
          if (c >= 0) {
            this.#layout = { kind: "w3c", column: c };
            this.#lead = leadOf(names!);
            this.#first = this.#lead.length > 0 ? FIRST_BYTES[this.#lead[0]] : null;
          }
          return 0;
        }
        if (this.#first !== null && (ruledOut(this.#first, buf, s, e) || !leadFits(buf, s, e, this.#lead))) {
          return 0;
        }
        return w3cStatus(buf, s, e, l.column);
      }
    }
  }
}

/**
 * The layout of a file's HTTP statuses, learnt from its first lines: a W3C `#Fields:` directive naming
 * `sc-status` among them; else the layout by which the most lines carry a status, when at least a tenth
 * of the sample's non-blank lines (and 2, or the only one) do (a mixed log, as Caddy's, writes access
 * lines among others). Detecting `request` needs a real request line (`"GET /x HTTP/1.1" 200`).
 *
 * @param sample The file's first bytes (decoded from gzip for a `.gz`); at most
 *   {@linkcode SAMPLE_LINES} whole lines are read (a last line without its end is left out, unless it
 *   is the only one).
 * @returns The layout, or null: the file's lines carry no status this module reads.
 */
export function detectStatus(sample: Uint8Array): StatusLayout | null {
  const hits = { request: 0, haproxy: 0, uwsgi: 0, json: new Map<string, number>() };
  const keys = JSON_KEYS.map((k) => [k, new TextEncoder().encode(`"${k}"`)] as const);
  let lines = 0;
  for (let s = 0, n = 0; s < sample.length && n < SAMPLE_LINES; n++) {
    let e = sample.indexOf(10, s);
    if (e < 0 && n > 0) break; // a last line cut by the sample's end
    const next = e < 0 ? sample.length : e + 1;
    if (e < 0) e = sample.length;
    if (e > s && sample[e - 1] === 13) e--;
    const column = fieldsColumn(sample, s, e);
    if (column >= 0) return { kind: "w3c", column };
    if (e > s && sample[s] !== 0x23) {
      lines++;
      if (requestStatus(sample, s, e, true)) hits.request++;
      if (haproxyStatus(sample, s, e)) hits.haproxy++;
      if (uwsgiStatus(sample, s, e)) hits.uwsgi++;
      for (const [k, bytes] of keys) {
        if (jsonStatus(sample, s, e, bytes)) hits.json.set(k, (hits.json.get(k) ?? 0) + 1);
      }
    }
    s = next;
  }
  const need = Math.max(Math.min(2, lines), Math.ceil(lines / 10));
  let best: StatusLayout | null = null;
  let most = 0;
  const consider = (layout: StatusLayout, n: number) => {
    if (n >= need && n > most) [best, most] = [layout, n];
  };
  consider({ kind: "request" }, hits.request);
  consider({ kind: "haproxy" }, hits.haproxy);
  consider({ kind: "uwsgi" }, hits.uwsgi);
  for (const [key, n] of hits.json) consider({ kind: "json", key }, n);
  return lines > 0 ? best : null;
}

/** The most bytes of a file's start {@linkcode statusLayoutOf} samples (64 KiB). */
export const SAMPLE_BYTES = 65536;

/**
 * The layout of a log's HTTP statuses ({@linkcode detectStatus}) from its first {@linkcode SAMPLE_BYTES}
 * bytes of lines (`scan_source.ts` `logHead`: decompressed for a `.gz`).
 *
 * @param log The open log.
 * @returns The layout, or null.
 * @throws Read errors of the handle.
 */
export function statusLayoutOf(log: ReadableLog): StatusLayout | null {
  return detectStatus(logHead(log, SAMPLE_BYTES));
}

/**
 * Counts lines by the level their HTTP status gives ({@linkcode statusLevel}; UNKNOWN's slot, 7, for a
 * line with none), read by a file's layout: what `log_levels` offers as `derived`. The scanner's counting
 * loop (`hand_lines.ts` `countEveryLine`) calls it beside `level.ts` `LevelTally.add`, no sink call per
 * line (issue #26, item 3: a sink call and a byte loop to each line's end cost 3x the level count).
 */
export class StatusTally {
  /** Lines by level code (`level.ts` LEVELS: 2 INFO, 4 WARN, 5 ERROR; 7 for no status). */
  readonly derived: Float64Array = new Float64Array(8);
  readonly #reader: StatusReader;
  /** Whether a line without a `"` holds no status (the `request` and `json` layouts). */
  readonly #quoted: boolean;
  /** The first `"` at or after the last line looked at by {@linkcode next}, or `#limit` for none before it. */
  #quote = -1;
  /** Where the lines handed to {@linkcode next} end in the buffer (see {@linkcode begin}). */
  #limit = -1;

  /** @param layout From {@linkcode detectStatus}. */
  constructor(layout: StatusLayout) {
    this.#reader = new StatusReader(layout);
    this.#quoted = layout.kind === "request" || layout.kind === "json";
  }

  /** Counts the line buf[s, e) (its first bytes, for a long one). */
  add(buf: Uint8Array, s: number, e: number): void {
    const code = statusLevel(this.#reader.statusOf(buf, s, e));
    this.derived[code < 0 ? 7 : code]++;
  }

  /**
   * Lines of buf[from, limit) are about to be handed to {@linkcode next}, in order, the bytes unchanged
   * meanwhile: then one native search finds the next `"` for many lines that have none.
   */
  begin(limit: number): void {
    this.#limit = limit;
    this.#quote = -1;
  }

  /** {@linkcode add} for the next line buf[s, e) after {@linkcode begin} (or the one before), e ≤ its `limit`. */
  next(buf: Uint8Array, s: number, e: number): void {
    const first = this.#reader.firstBytes;
    if (first !== null) { // ruledOut, inlined by hand (the common case: a line of another program)
      const c = buf[s];
      if (
        s >= e || first[c] === 0 ||
        (c >= 48 && c <= 57 && first === FIRST_BYTES[DATE] &&
          (e - s < 10 || buf[s + 4] !== 45 || buf[s + 7] !== 45 ||
            (e - s > 10 && W3C_BLANK[buf[s + 10]] !== 1)))
      ) {
        this.derived[7]++;
        return;
      }
    }
    if (this.#quoted) {
      let q = this.#quote;
      if (q < s) {
        q = buf.indexOf(34, s); // past `limit`, or none: no `"` before the limit
        if (q < 0 || q > this.#limit) q = this.#limit;
        this.#quote = q;
      }
      if (q >= e) {
        this.derived[7]++;
        return;
      }
    }
    this.add(buf, s, e);
  }
}
