/**
 * What a log's first bytes say it is (issue #10, item 1): plain text (UTF-8, with or without a byte-order
 * mark), gzip (which logpeek decompresses), or a format logpeek does not read — another compressor
 * (xz, lzma, lzip, bzip2, zstd, lz4, lzop, compress), an archive (zip, 7z, rar, tar), a binary log or database
 * (a systemd journal, a Windows event log, a packet capture, SQLite, login records), a program (ELF), or
 * text in UTF-16/32. Such a file read as text would give "0 matches; complete" for a log full of
 * errors (an xz-compressed apt log under `/var/log/apt`), so it is refused, naming the format and what to
 * run instead.
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

/** How many first bytes {@linkcode sniffFormat} wants (tar's `ustar` is at offset 257). */
export const SNIFF_BYTES = 512;

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
   * `lzop`, `compress`, `zip`, `7z`, `rar`, `tar`, `journal`, `evtx`, `pcap`, `pcapng`, `sqlite`, `elf`, `utmp`,
   * `utf-16le`, `utf-16be`, `utf-32le`, `utf-32be`); for a refused gzip log, `gzip+` and the inner one's.
   */
  format: string;
  /** Bytes of a UTF-8 byte-order mark at the start (3), else 0; no line includes them. */
  bomLength: number;
  /** Null when logpeek reads it (text, gzip); else why not and what to run instead. */
  refusal: Refusal | null;
}

/** [format, what, instead, test of the first bytes]. */
type Magic = [string, string, string, (b: Uint8Array) => boolean];

const at = (b: Uint8Array, off: number, ...sig: number[]) =>
  b.length >= off + sig.length && sig.every((v, i) => b[off + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const hasNul = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).includes(0);

/**
 * The magic numbers, from each format's specification (or `file(1)`'s magic database where none is
 * published). Those that are printable text are held to more of their header, so that a text log that
 * happens to start with the same letters is not refused.
 */
const MAGICS: Magic[] = [
  ["xz", "xz-compressed", "xz -dc FILE", (b) => at(b, 0, 0xfd, ...ascii("7zXZ"), 0)],
  // .lzma (LZMA-alone): properties byte 0x5D, then a power-of-two dictionary size, little endian.
  ["lzma", "lzma-compressed", "xz -dc --format=lzma FILE", (b) => at(b, 0, 0x5d, 0, 0) && b.length >= 13],
  ["lzip", "lzip-compressed", "lzip -dc FILE", (b) => at(b, 0, ...ascii("LZIP"), 1)],
  // bzip2: "BZh" and a block size digit, then the block magic (pi) or the end of stream (sqrt(pi)).
  [
    "bzip2",
    "bzip2-compressed",
    "bzip2 -dc FILE",
    (b) =>
      at(b, 0, ...ascii("BZh")) && b[3] >= 0x31 && b[3] <= 0x39 &&
      (at(b, 4, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59) || at(b, 4, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90)),
  ],
  ["zstd", "zstd-compressed", "zstd -dc FILE", (b) => at(b, 0, 0x28, 0xb5, 0x2f, 0xfd)],
  // Skippable frames (zstd and lz4 share them): 0x184D2A50..5F, little endian.
  [
    "zstd",
    "zstd- or lz4-compressed (a skippable frame first)",
    "zstd -dc FILE (or lz4 -dc FILE)",
    (b) => b.length >= 4 && (b[0] & 0xf0) === 0x50 && at(b, 1, 0x2a, 0x4d, 0x18),
  ],
  ["lz4", "lz4-compressed", "lz4 -dc FILE", (b) => at(b, 0, 0x04, 0x22, 0x4d, 0x18)],
  ["lz4", "lz4-compressed (legacy format)", "lz4 -dc FILE", (b) => at(b, 0, 0x02, 0x21, 0x4c, 0x18)],
  ["compress", "compressed by compress(1) (.Z)", "gzip -dc FILE", (b) => at(b, 0, 0x1f, 0x9d)],
  [
    "lzop",
    "lzop-compressed",
    "lzop -dc FILE",
    (b) => at(b, 0, 0x89, ...ascii("LZO"), 0, 0x0d, 0x0a, 0x1a, 0x0a),
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
  ["pcapng", "a packet capture (pcapng)", "tcpdump -nr FILE", (b) => at(b, 0, 0x0a, 0x0d, 0x0d, 0x0a)],
  ["sqlite", "an SQLite database", "sqlite3 FILE", (b) => at(b, 0, ...ascii("SQLite format 3"), 0)],
  [
    "elf",
    "a program or library (ELF), not a log",
    "nothing: it is not a log",
    (b) => at(b, 0, 0x7f, ...ascii("ELF")),
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
 * Says what a log is from its first bytes.
 *
 * @param head The first bytes of the file: {@linkcode SNIFF_BYTES} of them, or all of a shorter file.
 * @param name The log's name (only its last segment is looked at, for login records).
 * @returns Its format, the UTF-8 byte-order mark's length, and why it is not read (or null).
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
  return { format: "text", bomLength: at(head, 0, 0xef, 0xbb, 0xbf) ? 3 : 0, refusal: null };
}

/** Compressed bytes of a gzip log decompressed to look at what it holds. */
export const GZIP_SNIFF_INPUT = 2048;

/**
 * What a gzip log holds, from its first compressed bytes: refused when the decompressed start is itself
 * a format logpeek does not read (a `.tar.gz`, a gzipped journal or UTF-16 text).
 *
 * Memory: the first {@linkcode GZIP_SNIFF_INPUT} compressed bytes decompress to at most about 2 MiB
 * (deflate's ratio is at most 1032:1); more is not kept (the call then says `gzip`).
 *
 * @param compressed The file's first bytes (up to {@linkcode GZIP_SNIFF_INPUT} are used).
 * @param name The log's name, without its `.gz` (for login records).
 * @returns `gzip` (read), or `gzip+FORMAT` with the refusal, its advice run through `gzip -dc`.
 */
export function sniffGzipInner(compressed: Uint8Array, name: string): Sniffed {
  let inner: Uint8Array;
  try {
    inner = zlib.gunzipSync(Buffer.from(compressed.subarray(0, GZIP_SNIFF_INPUT)), {
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
      maxOutputLength: 4 * 1024 * 1024,
    });
  } catch {
    // damaged at the start: reading it says so (corrupt_gzip)
    return { format: "gzip", bomLength: 0, refusal: null };
  }
  const s = sniffFormat(inner.subarray(0, SNIFF_BYTES), name.replace(/\.gz$/, ""));
  if (!s.refusal) return { format: "gzip", bomLength: 0, refusal: null };
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
 * replaced by the log's name as the caller gave it (quoted for a shell).
 *
 * @param name The log's name (already made printable by the caller when it goes into text).
 * @param r The refusal.
 */
export function refusalText(name: string, r: Refusal): string {
  const quoted = shellQuote(name);
  return `${name} is ${r.what}; logpeek reads plain-text (UTF-8) and gzip logs only, and does not read it ` +
    `as text: run \`${
      r.instead.replaceAll("FILE", quoted)
    }\` outside logpeek instead (the name is relative to its log root)`;
}

/**
 * The short form of {@linkcode refusalText} for a listing: what it is and what to run instead
 * ("xz-compressed; run `xz -dc 'apt/eipp.log.xz'` outside logpeek").
 *
 * @param name The log's name as listed.
 * @param r The refusal.
 */
export function refusalNote(name: string, r: Refusal): string {
  return `${r.what}; run \`${r.instead.replaceAll("FILE", shellQuote(name))}\` outside logpeek`;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}
