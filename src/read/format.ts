/**
 * What a log's first bytes say it is (issue #10, item 1): plain text (UTF-8, with or without a byte-order
 * mark), gzip (which logpeek decompresses), or a format logpeek does not read — another compressor
 * (xz, lzma, lzip, bzip2, zstd, lz4, lzop, compress, snappy, zlib), an archive (zip, 7z, rar, tar, ar, CAB),
 * a binary log or database (a systemd journal, a Windows event log, an Apple tracev3, a packet capture,
 * SQLite, login records), a program (ELF, PE), an image or a PDF, text in UTF-16/32, or — with no known
 * magic — binary data: too many of its first bytes are not text ({@linkcode nonTextShare}). Such a file
 * read as text would give "0 matches; complete" for a log full of errors (an xz-compressed apt log under
 * `/var/log/apt`), so it is refused, naming the format and what to run instead.
 *
 * Recognised by magic bytes only, never by the name's extension (a `.log` may be xz; an `.xz` may be
 * text), except login records (`wtmp`, `btmp`, `utmp`, `lastlog`, `faillog`), which have no magic: those
 * are known by their name together with a NUL byte among their first bytes (text logs hold none there).
 * A gzip log whose decompressed start is itself one of these formats (a `.tar.gz`, a gzipped journal) is
 * refused too ({@linkcode sniffGzipInner}).
 *
 * @module
 */

import zlib from "node:zlib";
import { Buffer } from "node:buffer";

/**
 * How many first bytes {@linkcode sniffFormat} wants: tar's `ustar` is at offset 257, and the share of
 * bytes that are not text ({@linkcode nonTextShare}) is measured over up to 4 KiB.
 */
export const SNIFF_BYTES = 4096;

/** A format logpeek does not read, and what to do instead. */
export interface Refusal {
  /** The error kind the reading tools answer: text in another encoding, or another format. */
  kind: "unsupported_encoding" | "unsupported_format";
  /** What it is, for a sentence: "xz-compressed", "a tar archive", "UTF-16LE (byte-order mark FF FE)". */
  what: string;
  /** What to run instead, with `FILE` standing for the file: "xz -dc FILE". */
  instead: string;
}

/** What a log's first bytes say. */
export interface Sniffed {
  /**
   * A short name: `text`, `gzip`, or the refused format's (`xz`, `bzip2`, `zstd`, `lz4`, `lzma`, `lzip`,
   * `lzop`, `compress`, `snappy`, `zlib`, `zip`, `7z`, `rar`, `tar`, `ar`, `cab`, `journal`, `evtx`, `evt`,
   * `tracev3`, `pcap`, `pcapng`, `sqlite`, `elf`, `pe`, `png`, `jpeg`, `pdf`, `utmp`, `binary` (no magic, but
   * not text), `utf-16le`, `utf-16be`, `utf-32le`, `utf-32be`); for a refused gzip log, `gzip+` and the inner
   * one's (or `gzip+long-header`).
   */
  format: string;
  /** Bytes of a UTF-8 byte-order mark at the start (3), else 0; no line includes them. */
  bomLength: number;
  /** Null when logpeek reads it (text, gzip); else why not and what to run instead. */
  refusal: Refusal | null;
}

/**
 * [format, what, instead, test of the first bytes, and optionally the magic's fixed first bytes (a
 * number, or the values allowed there) for a file shorter than the magic ({@linkcode truncatedMagic})].
 */
type Magic = [string, string, string, (b: Uint8Array) => boolean, (number | number[])[]?];

const at = (b: Uint8Array, off: number, ...sig: number[]) =>
  b.length >= off + sig.length && sig.every((v, i) => b[off + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const hasNul = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).includes(0);
const TEXT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);
/** The block size digit of a bzip2 header. */
const DIGITS_1_9 = [0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39];
/** A byte no text log holds: a C0 control other than \t \n \v \f \r \b ESC, DEL, or 0x80 and up. */
const notTextByte = (v: number) => v >= 0x7f || (v < 0x20 && !TEXT_CONTROLS.has(v));
const hasNonText = (b: Uint8Array, from: number, to: number) =>
  b.subarray(from, to).some((v) => notTextByte(v));
/** Bytes 24..65 of an ar member header (mtime, uid, gid, mode, size) are decimal digits or spaces. */
const arFields = (b: Uint8Array) =>
  b.length >= 68 && b.subarray(24, 66).every((v) => v === 0x20 || (v >= 0x30 && v <= 0x39));
/** A zlib header (RFC 1950: deflate, FCHECK makes CMF*256+FLG a multiple of 31), whose start inflates. */
function zlibStream(b: Uint8Array): boolean {
  if (b.length < 8 || b[0] !== 0x78 || ![0x01, 0x5e, 0x9c, 0xda].includes(b[1])) return false;
  if ((b[0] * 256 + b[1]) % 31 !== 0 || (b[1] & 0x20) !== 0 || !hasNonText(b, 2, b.length)) return false;
  try {
    const out = zlib.inflateSync(Buffer.from(b), {
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
      maxOutputLength: 1024 * 1024,
    });
    return out.length > 0;
  } catch (e) {
    // more than 1 MiB from a few KiB: a zlib stream, and a very compressible one
    return (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
  }
}

/**
 * The magic numbers, from each format's specification (or `file(1)`'s magic database where none is
 * published). Those that are printable text are held to more of their header, so that a text log that
 * happens to start with the same letters is not refused.
 */
const MAGICS: Magic[] = [
  ["xz", "xz-compressed", "xz -dc FILE", (b) => at(b, 0, 0xfd, ...ascii("7zXZ"), 0), [
    0xfd,
    ...ascii("7zXZ"),
    0,
  ]],
  // .lzma (LZMA-alone): properties byte 0x5D, then a power-of-two dictionary size, little endian.
  ["lzma", "lzma-compressed", "xz -dc --format=lzma FILE", (b) => at(b, 0, 0x5d, 0, 0) && b.length >= 13],
  ["lzip", "lzip-compressed", "lzip -dc FILE", (b) => at(b, 0, ...ascii("LZIP"), 1), [...ascii("LZIP"), 1]],
  // bzip2: "BZh" and a block size digit, then the block magic (pi) or the end of stream (sqrt(pi)).
  // "BZh91AY&SY" is all printable: a block is also held to a byte no text has in its first 64 (its CRC
  // and the Huffman tables follow).
  [
    "bzip2",
    "bzip2-compressed",
    "bzip2 -dc FILE",
    (b) =>
      at(b, 0, ...ascii("BZh")) && b[3] >= 0x31 && b[3] <= 0x39 &&
      ((at(b, 4, ...ascii("1AY&SY")) && hasNonText(b, 10, 64)) ||
        at(b, 4, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90)),
    [...ascii("BZh"), DIGITS_1_9, ...ascii("1AY&SY")],
  ],
  ["bzip2", "bzip2-compressed", "bzip2 -dc FILE", () => false, [
    ...ascii("BZh"),
    DIGITS_1_9,
    0x17,
    0x72,
    0x45,
    0x38,
    0x50,
    0x90,
  ]],
  ["zstd", "zstd-compressed", "zstd -dc FILE", (b) => at(b, 0, 0x28, 0xb5, 0x2f, 0xfd), [
    0x28,
    0xb5,
    0x2f,
    0xfd,
  ]],
  // Skippable frames (zstd and lz4 share them): 0x184D2A50..5F, little endian.
  [
    "zstd",
    "zstd- or lz4-compressed (a skippable frame first)",
    "zstd -dc FILE (or lz4 -dc FILE)",
    (b) => b.length >= 4 && (b[0] & 0xf0) === 0x50 && at(b, 1, 0x2a, 0x4d, 0x18),
  ],
  ["lz4", "lz4-compressed", "lz4 -dc FILE", (b) => at(b, 0, 0x04, 0x22, 0x4d, 0x18), [
    0x04,
    0x22,
    0x4d,
    0x18,
  ]],
  ["lz4", "lz4-compressed (legacy format)", "lz4 -dc FILE", (b) => at(b, 0, 0x02, 0x21, 0x4c, 0x18)],
  ["compress", "compressed by compress(1) (.Z)", "gzip -dc FILE", (b) => at(b, 0, 0x1f, 0x9d)],
  [
    "lzop",
    "lzop-compressed",
    "lzop -dc FILE",
    (b) => at(b, 0, 0x89, ...ascii("LZO"), 0, 0x0d, 0x0a, 0x1a, 0x0a),
    [0x89, ...ascii("LZO"), 0, 0x0d, 0x0a, 0x1a, 0x0a],
  ],
  [
    "zip",
    "a zip archive",
    "unzip -l FILE, then unzip -p FILE MEMBER",
    (b) => at(b, 0, ...ascii("PK"), 3, 4) || at(b, 0, ...ascii("PK"), 5, 6) || at(b, 0, ...ascii("PK"), 7, 8),
  ],
  [
    "7z",
    "a 7z archive",
    "7z l FILE, then 7z x -so FILE MEMBER",
    (b) => at(b, 0, ...ascii("7z"), 0xbc, 0xaf, 0x27, 0x1c),
    [...ascii("7z"), 0xbc, 0xaf, 0x27, 0x1c],
  ],
  ["rar", "a rar archive", "unrar p FILE (or 7z x -so FILE)", (b) => at(b, 0, ...ascii("Rar!"), 0x1a, 0x07)],
  // POSIX ("ustar\0") and GNU ("ustar  \0") tar headers hold their magic at offset 257.
  [
    "tar",
    "a tar archive",
    "tar -tvf FILE, then tar -xOf FILE MEMBER",
    (b) => at(b, 257, ...ascii("ustar"), 0) || at(b, 257, ...ascii("ustar  "), 0),
  ],
  // systemd journal: "LPKSHHRH", then flags and a state byte, then 7 reserved zero bytes.
  [
    "journal",
    "a systemd journal file",
    "journalctl --file FILE",
    (b) => at(b, 0, ...ascii("LPKSHHRH")) && hasNul(b, 8, 24),
  ],
  [
    "evtx",
    "a Windows event log (EVTX)",
    "evtx_dump FILE (python-evtx), or wevtutil on Windows",
    (b) => at(b, 0, ...ascii("ElfFile"), 0),
  ],
  [
    "pcap",
    "a packet capture (pcap)",
    "tcpdump -nr FILE",
    (b) =>
      at(b, 0, 0xd4, 0xc3, 0xb2, 0xa1) || at(b, 0, 0xa1, 0xb2, 0xc3, 0xd4) ||
      at(b, 0, 0x4d, 0x3c, 0xb2, 0xa1) || at(b, 0, 0xa1, 0xb2, 0x3c, 0x4d),
  ],
  // pcapng: a section header block (0A 0D 0D 0A, all text bytes), whose byte-order magic 1A2B3C4D, in
  // either order, is at offset 8.
  [
    "pcapng",
    "a packet capture (pcapng)",
    "tcpdump -nr FILE",
    (b) =>
      at(b, 0, 0x0a, 0x0d, 0x0d, 0x0a) &&
      (at(b, 8, 0x1a, 0x2b, 0x3c, 0x4d) || at(b, 8, 0x4d, 0x3c, 0x2b, 0x1a)),
  ],
  ["sqlite", "an SQLite database", "sqlite3 FILE", (b) => at(b, 0, ...ascii("SQLite format 3"), 0)],
  [
    "elf",
    "a program or library (ELF), not a log",
    "nothing: it is not a log",
    (b) => at(b, 0, 0x7f, ...ascii("ELF")),
    [0x7f, ...ascii("ELF")],
  ],
  // Windows NT event log (.evt, before EVTX): header size 0x30, then "LfLe".
  [
    "evt",
    "a Windows event log (legacy .evt)",
    "evtexport FILE (libevt), or wevtutil on Windows",
    (b) => at(b, 0, 0x30, 0, 0, 0, ...ascii("LfLe")),
    [0x30, 0, 0, 0, ...ascii("LfLe")],
  ],
  // The snappy framing format's stream identifier chunk.
  [
    "snappy",
    "snappy-compressed (framed)",
    "python3 -m snappy -d FILE OUT (python-snappy)",
    (b) => at(b, 0, 0xff, 6, 0, 0, ...ascii("sNaPpY")),
    [0xff, 6, 0, 0, ...ascii("sNaPpY")],
  ],
  ["zlib", "a zlib stream (deflate with a zlib header)", "zlib-flate -uncompress < FILE (qpdf)", zlibStream],
  // ar archives (a .deb is one): "!<arch>\n" is printable, so the first member's header is checked too.
  [
    "ar",
    "an ar archive (a .deb or a static library)",
    "ar t FILE (for a .deb: dpkg-deb -c FILE)",
    (b) => at(b, 0, ...ascii("!<arch>\n")) && at(b, 66, 0x60, 0x0a) && arFields(b),
  ],
  ["cab", "a Microsoft cabinet (CAB)", "cabextract -l FILE", (b) => at(b, 0, ...ascii("MSCF"), 0, 0, 0, 0)],
  // "MZ" is printable: a DOS/PE header holds NULs in its first 64 bytes, text does not.
  [
    "pe",
    "a Windows program or library (PE/MZ), not a log",
    "nothing: it is not a log",
    (b) => at(b, 0, ...ascii("MZ")) && hasNul(b, 2, 64),
  ],
  [
    "png",
    "an image (PNG), not a log",
    "nothing: it is not a log",
    (b) => at(b, 0, 0x89, ...ascii("PNG"), 0x0d, 0x0a, 0x1a, 0x0a),
    [0x89, ...ascii("PNG"), 0x0d, 0x0a, 0x1a, 0x0a],
  ],
  ["jpeg", "an image (JPEG), not a log", "nothing: it is not a log", (b) => at(b, 0, 0xff, 0xd8, 0xff), [
    0xff,
    0xd8,
    0xff,
  ]],
  // "%PDF-1.7" is printable: held to a byte no text has within the first KiB (the binary comment that
  // the PDF specification recommends on the second line).
  [
    "pdf",
    "a PDF document, not a log",
    "pdftotext FILE -",
    (b) => /^%PDF-[12]\.[0-9]/.test(String.fromCharCode(...b.subarray(0, 8))) && hasNonText(b, 8, 1024),
  ],
  // Apple unified logging: a tracev3 file starts with its header chunk (tag 0x1000, subtag 0x11).
  [
    "tracev3",
    "an Apple unified log (tracev3)",
    "log show on macOS, on the .logarchive that holds FILE",
    (b) => at(b, 0, 0, 0x10, 0, 0, 0x11, 0, 0, 0),
  ],
];

/** Byte-order marks of encodings logpeek does not read (longest first: UTF-32LE starts like UTF-16LE). */
const BOMS: [string, string, number[]][] = [
  ["utf-32le", "UTF-32LE (byte-order mark FF FE 00 00)", [0xff, 0xfe, 0, 0]],
  ["utf-32be", "UTF-32BE (byte-order mark 00 00 FE FF)", [0, 0, 0xfe, 0xff]],
  ["utf-16le", "UTF-16LE (byte-order mark FF FE)", [0xff, 0xfe]],
  ["utf-16be", "UTF-16BE (byte-order mark FE FF)", [0xfe, 0xff]],
];

/** Login-record files, which have no magic number: their base names, as rotated too. */
const LOGIN_RECORDS = /^(wtmp|btmp|utmp|utmpx|wtmpx|lastlog|faillog)([.-][0-9]+)?$/;

/**
 * The share of a log's first bytes that are not text, the evidence for binary data with no known magic.
 *
 * Counted as not text: bytes of invalid UTF-8 (each byte that does not start a valid sequence; a
 * sequence cut by the end of `b` is not counted), C0 controls other than \t \n \v \f \r \b and ESC,
 * DEL, and NUL bytes in runs shorter than 16. Runs of 16 NULs or more are left out of both counts: a log
 * truncated by `logrotate`'s `copytruncate` while its writer kept its offset starts with such a run, and a
 * crash can leave one inside a log; neither makes it binary.
 *
 * @param b The first bytes (up to {@linkcode SNIFF_BYTES}).
 * @returns How many bytes were judged (NUL runs left out) and how many of them are not text.
 */
export function nonTextShare(b: Uint8Array): { judged: number; nonText: number } {
  let judged = 0;
  let nonText = 0;
  let i = 0;
  while (i < b.length) {
    const v = b[i];
    if (v === 0) {
      let j = i;
      while (j < b.length && b[j] === 0) j++;
      if (j - i < NUL_RUN) {
        judged += j - i;
        nonText += j - i;
      }
      i = j;
      continue;
    }
    if (v < 0x80) {
      judged++;
      if (notTextByte(v)) nonText++;
      i++;
      continue;
    }
    const n = v >= 0xc2 && v <= 0xdf ? 1 : v >= 0xe0 && v <= 0xef ? 2 : v >= 0xf0 && v <= 0xf4 ? 3 : -1;
    if (n > 0 && i + n >= b.length && b.subarray(i + 1).every((c) => (c & 0xc0) === 0x80)) break; // cut
    let ok = n > 0;
    for (let k = 1; ok && k <= n; k++) ok = (b[i + k] & 0xc0) === 0x80;
    // overlong (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and beyond U+10FFFF (F4 90..)
    if (ok && n > 1) {
      const c = b[i + 1];
      ok = !((v === 0xe0 && c < 0xa0) || (v === 0xed && c > 0x9f) || (v === 0xf0 && c < 0x90) ||
        (v === 0xf4 && c > 0x8f));
    }
    if (ok) {
      judged += n + 1;
      i += n + 1;
    } else {
      judged++;
      nonText++;
      i++;
    }
  }
  return { judged, nonText };
}

/** NUL runs this long or longer are holes, not evidence ({@linkcode nonTextShare}). */
const NUL_RUN = 16;
/**
 * Binary data: at least this share of the judged bytes is not text. Measured over every 4 KiB window
 * (when this was set): at most 0.13% on the 16 Loghub files, the text logs of a Debian `/var/log` and
 * 400 changelogs, licences and `/etc` files (gzip ones decompressed); 10.6% on a Latin-1 French log with
 * about nine accented letters a line; at least 49.6% on random bytes and on xz, bzip2, zstd, deflate and
 * zlib output.
 */
export const BINARY_SHARE = 0.3;
/** Fewer judged bytes than this say nothing either way: such a log is read as text. */
export const BINARY_MIN_BYTES = 64;

/**
 * A file no longer than a magic number (and not caught by its full test), all of whose bytes are the magic's start, and which holds a byte
 * no text has (so a text file that says "BZh" stays text) — or for bzip2, whose magic is printable, at
 * least its 6 first bytes ("BZh91A", a block size digit and the block magic's start). At least 3 bytes.
 */
function truncatedMagic(head: Uint8Array): Magic | null {
  if (head.length < 3) return null;
  for (const m of MAGICS) {
    const sig = m[4];
    if (!sig || head.length > sig.length) continue;
    if (
      !head.every((v, i) => (typeof sig[i] === "number" ? sig[i] === v : (sig[i] as number[]).includes(v)))
    ) {
      continue;
    }
    if (hasNonText(head, 0, head.length) || (m[0] === "bzip2" && head.length >= 6)) return m;
  }
  return null;
}

/**
 * Says what a log is from its first bytes.
 *
 * @param head The first bytes of the file: {@linkcode SNIFF_BYTES} of them, or all of a shorter file.
 * @param name The log's name (only its last segment is looked at, for login records).
 * @returns Its format, the UTF-8 byte-order mark's length, and why it is not read (or null): `binary`
 *   when no magic matched but {@linkcode BINARY_SHARE} or more of its first bytes are not text.
 */
export function sniffFormat(head: Uint8Array, name: string): Sniffed {
  if (at(head, 0, 0x1f, 0x8b)) return { format: "gzip", bomLength: 0, refusal: null };
  for (const [format, what, bom] of BOMS) {
    if (at(head, 0, ...bom)) {
      const from = format.startsWith("utf-16") ? "UTF-16" : "UTF-32";
      return {
        format,
        bomLength: 0,
        refusal: {
          kind: "unsupported_encoding",
          what: `${what}, not UTF-8`,
          instead: `iconv -f ${from} -t UTF-8 FILE`,
        },
      };
    }
  }
  for (const [format, what, instead, test] of MAGICS) {
    if (test(head)) return { format, bomLength: 0, refusal: { kind: "unsupported_format", what, instead } };
  }
  const cut = truncatedMagic(head);
  if (cut) {
    const [format, what, instead] = cut;
    return {
      format,
      bomLength: 0,
      refusal: {
        kind: "unsupported_format",
        what: `${what} (cut short: only ${head.length} bytes)`,
        instead,
      },
    };
  }
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (LOGIN_RECORDS.test(base) && hasNul(head, 0, SNIFF_BYTES)) {
    const cmd = base.startsWith("lastlog")
      ? "lastlog"
      : base.startsWith("faillog")
      ? "faillog -a"
      : "last -f FILE";
    return {
      format: "utmp",
      bomLength: 0,
      refusal: { kind: "unsupported_format", what: "binary login records (utmp/wtmp)", instead: cmd },
    };
  }
  const bomLength = at(head, 0, 0xef, 0xbb, 0xbf) ? 3 : 0;
  const { judged, nonText } = nonTextShare(head.subarray(bomLength, SNIFF_BYTES));
  if (judged >= BINARY_MIN_BYTES && nonText >= BINARY_SHARE * judged) {
    return {
      format: "binary",
      bomLength: 0,
      refusal: {
        kind: "unsupported_format",
        what:
          `binary data (not text): ${Math.round((100 * nonText) / judged)}% of its first ${judged} bytes ` +
          "are not UTF-8 text",
        instead: "file FILE to see what it is, or strings FILE | grep PATTERN",
      },
    };
  }
  return { format: "text", bomLength, refusal: null };
}

/**
 * At most this many compressed bytes of a gzip log (after its header) are decompressed to look at what
 * it holds ({@linkcode sniffGzipInner}).
 */
export const GZIP_SNIFF_INPUT = 64 * 1024;
/** A gzip header (with its optional name, comment and extra field) longer than this is not looked past. */
export const GZIP_HEADER_LIMIT = 1024 * 1024;

/** Reads up to `length` bytes at `offset` of a file (fewer at its end). */
export type ReadAt = (offset: number, length: number) => Uint8Array;

/**
 * Where a gzip member's deflate data starts (RFC 1952: 10 bytes, then FEXTRA, FNAME, FCOMMENT, FHCRC
 * when their flags are set), or null when the header is damaged or cut; `"long"` past
 * {@linkcode GZIP_HEADER_LIMIT}.
 */
function gzipBodyStart(read: ReadAt): number | "long" | null {
  const h = read(0, 10);
  if (h.length < 10 || h[0] !== 0x1f || h[1] !== 0x8b || h[2] !== 8) return null;
  const flags = h[3];
  let pos = 10;
  if (flags & 4) {
    const x = read(pos, 2);
    if (x.length < 2) return null;
    pos += 2 + x[0] + x[1] * 256;
  }
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    for (;;) {
      if (pos > GZIP_HEADER_LIMIT) return "long";
      const chunk = read(pos, 64 * 1024);
      if (!chunk.length) return null;
      const nul = chunk.indexOf(0);
      if (nul >= 0) {
        pos += nul + 1;
        break;
      }
      pos += chunk.length;
    }
  }
  if (flags & 2) pos += 2;
  return pos > GZIP_HEADER_LIMIT ? "long" : pos;
}

/**
 * Decompresses a deflate stream until it gives {@linkcode SNIFF_BYTES} (or ends, or
 * {@linkcode GZIP_SNIFF_INPUT} compressed bytes are used): compressed slices of 1, 4, 16 and 64 KiB,
 * each output held to 1 MiB (a slice that gives more is bisected). Null when the data is damaged.
 */
function inflateStart(body: Uint8Array): Uint8Array | null {
  const limit = 1024 * 1024;
  const inflate = (n: number): Uint8Array | "big" | null => {
    try {
      return zlib.inflateRawSync(Buffer.from(body.subarray(0, n)), {
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        maxOutputLength: limit,
      });
    } catch (e) {
      return (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "big" : null;
    }
  };
  let lo = 0;
  for (const n of [1024, 4096, 16384, GZIP_SNIFF_INPUT]) {
    const size = Math.min(n, body.length);
    let out = inflate(size);
    if (out === "big") {
      let hi = size;
      while (out === "big" || (out && out.length < SNIFF_BYTES)) {
        if (hi - lo <= 1) return null;
        const mid = Math.floor((lo + hi) / 2);
        out = inflate(mid);
        if (out === "big") hi = mid;
        else if (out && out.length < SNIFF_BYTES) lo = mid;
      }
    }
    if (out === null || out.length >= SNIFF_BYTES || size === body.length) return out;
    lo = size;
  }
  return null;
}

/**
 * What a gzip log holds, from the start of its decompressed content: refused when that is itself a
 * format logpeek does not read (a `.tar.gz`, a gzipped journal, xz, UTF-16 text, binary data). The
 * header's optional fields (name, comment, extra) are skipped whatever their length up to
 * {@linkcode GZIP_HEADER_LIMIT} (a longer header is refused), then up to {@linkcode GZIP_SNIFF_INPUT}
 * compressed bytes are decompressed until {@linkcode SNIFF_BYTES} come out.
 *
 * Only the first member is looked at: in concatenated members (`cat a.gz b.gz`), what a later one holds
 * is not sniffed.
 *
 * Memory: at most 1 MiB of output per attempt, and {@linkcode GZIP_SNIFF_INPUT} of input.
 *
 * @param source The file's bytes from its start (a {@linkcode ReadAt}), or its first bytes.
 * @param name The log's name, without its `.gz` (for login records).
 * @returns `gzip` (read), or `gzip+FORMAT` with the refusal, its advice run through `gzip -dc`.
 */
export function sniffGzipInner(source: Uint8Array | ReadAt, name: string): Sniffed {
  const read: ReadAt = typeof source === "function"
    ? source
    : (offset, length) => source.subarray(offset, offset + length);
  const readable = { format: "gzip", bomLength: 0, refusal: null };
  const start = gzipBodyStart(read);
  if (start === "long") {
    return {
      format: "gzip+long-header",
      bomLength: 0,
      refusal: {
        kind: "unsupported_format",
        what: `gzip with a header (name, comment or extra field) over ${GZIP_HEADER_LIMIT} bytes`,
        instead: "gzip -dc FILE > OUT, then read OUT",
      },
    };
  }
  // damaged at the start: reading it says so (corrupt_gzip)
  if (start === null) return readable;
  const inner = inflateStart(read(start, GZIP_SNIFF_INPUT));
  if (!inner) return readable;
  const s = sniffFormat(inner.subarray(0, SNIFF_BYTES), name.replace(/\.gz$/, ""));
  if (!s.refusal) return readable;
  return {
    format: `gzip+${s.format}`,
    bomLength: 0,
    refusal: {
      kind: s.refusal.kind,
      what: `${s.refusal.what} (inside gzip)`,
      instead: s.format === "tar"
        ? "tar -tzvf FILE, then tar -xzOf FILE MEMBER"
        : `gzip -dc FILE > OUT, then ${s.refusal.instead.replaceAll("FILE", "OUT")}`,
    },
  };
}

/**
 * The sentence a reading tool answers for a refused log: what it is and what to run instead, `FILE`
 * replaced by the log's absolute real path (quoted for a shell: {@linkcode shellQuote}), so the command
 * runs as given wherever the user is; with several roots the listed name (`logs-2/…`) is no folder.
 *
 * @param name The log's name as listed (already made printable by the caller when it goes into text).
 * @param r The refusal.
 * @param path The log's absolute real path.
 */
export function refusalText(name: string, r: Refusal, path: string): string {
  return `${name} is ${r.what}; logpeek reads plain-text (UTF-8) and gzip logs only, and does not read it ` +
    `as text: run \`${r.instead.replaceAll("FILE", () => shellQuote(path))}\` outside logpeek instead`;
}

/**
 * The short form of {@linkcode refusalText} for a listing: what it is and what to run instead
 * ("xz-compressed; run `xz -dc '/var/log/apt/eipp.log.xz'` outside logpeek").
 *
 * @param path The log's absolute real path.
 * @param r The refusal.
 */
export function refusalNote(path: string, r: Refusal): string {
  return `${r.what}; run \`${r.instead.replaceAll("FILE", () => shellQuote(path))}\` outside logpeek`;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;

/**
 * `s` quoted for a POSIX shell, printable: in single quotes (a quote inside as `'\''`); a name holding a
 * control character or line separator is quoted ANSI-C style instead (`$'a\nb'`: bash, zsh, ksh and
 * POSIX.1-2024 sh), so the command still takes one line of text and runs as shown.
 */
export function shellQuote(s: string): string {
  if (!CONTROL.test(s)) return `'${s.replaceAll("'", "'\\''")}'`;
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\" || ch === "'") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (CONTROL.test(ch)) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `$'${out}'`;
}
