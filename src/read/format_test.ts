import assert from "node:assert/strict";
import { noise } from "../../tests/fixtures.ts";
import { Buffer } from "node:buffer";
import { deflateRawSync, deflateSync, gunzipSync, gzipSync } from "node:zlib";
import {
  BINARY_SHARE,
  GZIP_HEADER_LIMIT,
  nonTextShare,
  refusalNote,
  refusalText,
  SNIFF_BYTES,
  sniffFormat,
  sniffGzipInner,
} from "./format.ts";

const enc = new TextEncoder();
const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...enc.encode(p)] : p)));
const padded = (b: Uint8Array, n = SNIFF_BYTES) => {
  const out = new Uint8Array(Math.max(n, b.length));
  out.set(b);
  return out;
};

/** An ar archive's start (ar(5)): "!<arch>\n", then a 60-byte member header ending in "`\n". */
const AR = bytes(
  "!<arch>\n",
  "app.log/        1714557600  0     0     100644  96        `\n",
  "2024-05-01 x\n",
);

/** A tar header: the file name at 0, "ustar\0" + "00" (POSIX) at 257, as tar(5) lays it out. */
function tarHeader(gnu: boolean): Uint8Array {
  const h = new Uint8Array(512);
  h.set(enc.encode("app.log"), 0);
  h.set(gnu ? bytes("ustar  ", [0]) : bytes("ustar", [0], "00"), 257);
  return h;
}

// Headers made by hand from each format's specification (the first bytes of a real file of each were
// compared in tests/formats_test.ts where the tool is installed).
const HEADERS: [string, Uint8Array][] = [
  ["xz", bytes([0xfd], "7zXZ", [0, 0, 4, 0xe6, 0xd6, 0xb4, 0x46])],
  ["lzma", padded(bytes([0x5d, 0, 0, 0x80, 0], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 13)],
  ["lzip", bytes("LZIP", [1, 0x0c])],
  // the first 16 bytes of `bzip2 -c` of this file's test log: the block magic, then its CRC
  ["bzip2", bytes("BZh9", [0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0xd5, 0x8e, 0x4c, 0x1f, 0, 0])],
  ["bzip2", bytes("BZh9", [0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0])], // an empty stream
  ["zstd", bytes([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05])],
  ["zstd", bytes([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0])], // a skippable frame
  ["lz4", bytes([0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7])],
  ["lz4", bytes([0x02, 0x21, 0x4c, 0x18])],
  ["compress", bytes([0x1f, 0x9d, 0x90])],
  ["lzop", bytes([0x89], "LZO", [0, 0x0d, 0x0a, 0x1a, 0x0a, 0x10, 0x40])],
  ["zip", bytes("PK", [3, 4, 20, 0])],
  ["zip", bytes("PK", [5, 6], new Array(18).fill(0))], // an empty archive
  ["7z", bytes("7z", [0xbc, 0xaf, 0x27, 0x1c, 0, 4])],
  ["rar", bytes("Rar!", [0x1a, 0x07, 0x01, 0])],
  ["tar", tarHeader(false)],
  ["tar", tarHeader(true)],
  ["journal", padded(bytes("LPKSHHRH", [0, 0, 0, 0, 0x1f, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]))],
  ["evtx", bytes("ElfFile", [0, 0, 0, 0, 0])],
  ["pcap", bytes([0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0])],
  ["pcap", bytes([0xa1, 0xb2, 0xc3, 0xd4, 0, 2, 0, 4])],
  ["pcapng", bytes([0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a])],
  ["pcapng", bytes([0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0x1c, 0x1a, 0x2b, 0x3c, 0x4d])], // big endian
  ["sqlite", bytes("SQLite format 3", [0, 0x10, 0])],
  ["elf", bytes([0x7f], "ELF", [2, 1, 1])],
  ["evt", padded(bytes([0x30, 0, 0, 0], "LfLe", [1, 0, 0, 0, 1, 0, 0, 0]), 48)],
  ["snappy", bytes([0xff, 6, 0, 0], "sNaPpY", [1, 0x10, 0, 0])],
  ["zlib", new Uint8Array(deflateSync(enc.encode("2024-05-01 10:00:00 ERROR x\n".repeat(100))))],
  ["zlib", new Uint8Array(deflateSync(noise(3000), { level: 1 }))], // 78 01
  ["zlib", new Uint8Array(deflateSync(noise(3000), { level: 9 }))], // 78 DA
  ["ar", AR],
  ["cab", bytes("MSCF", [0, 0, 0, 0, 0x2c, 0x01, 0, 0])],
  ["pe", padded(bytes("MZ", [0x90, 0, 3, 0, 0, 0, 4, 0]), 128)],
  ["png", bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], "IHDR")],
  ["jpeg", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF", [0])],
  ["pdf", bytes("%PDF-1.7\n%", [0xe2, 0xe3, 0xcf, 0xd3], "\n1 0 obj\n")],
  ["tracev3", padded(bytes([0, 0x10, 0, 0, 0x11, 0, 0, 0, 0xd0, 0, 0, 0, 0, 0, 0, 0]), 224)],
  ["binary", noise(3000)], // no magic: most of its bytes are not text
  ["binary", bytes(new Array(1000).fill(0), [...noise(600)])], // after a NUL run too
  // cut short, shorter than their magic (`printf '\xfd7zXZ'`; `head -c 6` of a bzip2 file)
  ["xz", bytes([0xfd], "7zXZ")],
  ["bzip2", bytes("BZh91A")],
  ["bzip2", bytes("BZh91AY&SY")], // the whole block magic, and nothing after it
  ["zstd", bytes([0x28, 0xb5, 0x2f])],
  ["png", bytes([0x89], "PN")],
  ["utf-16le", bytes([0xff, 0xfe], "2\x000\x00")],
  ["utf-16be", bytes([0xfe, 0xff], "\x002\x000")],
  ["utf-32le", bytes([0xff, 0xfe, 0, 0])],
  ["utf-32be", bytes([0, 0, 0xfe, 0xff])],
];

Deno.test("sniffFormat: each refused format by its magic bytes, with what it is and what to run instead", () => {
  for (const [format, head] of HEADERS) {
    const s = sniffFormat(head, "app.log");
    assert.equal(s.format, format, `${format}: ${JSON.stringify(s)}`);
    assert.ok(s.refusal, format);
    assert.equal(s.refusal.kind, format.startsWith("utf-") ? "unsupported_encoding" : "unsupported_format");
    assert.match(s.refusal.instead, /FILE|nothing|lastlog/, format);
  }
  assert.deepEqual(sniffFormat(HEADERS[0][1], "a.log").refusal, {
    kind: "unsupported_format",
    what: "xz-compressed",
    instead: "xz -dc FILE",
  });
  assert.equal(
    sniffFormat(padded(bytes("LPKSHHRH", [0, 0, 0, 0])), "x").refusal?.instead,
    "journalctl --file FILE",
  );
});

Deno.test("sniffFormat: text, a UTF-8 BOM and gzip are read; text that merely starts like a magic is text", () => {
  assert.deepEqual(sniffFormat(bytes("2024-05-01 10:00:00 INFO x\n"), "a.log"), {
    format: "text",
    bomLength: 0,
    refusal: null,
  });
  assert.equal(sniffFormat(bytes([0xef, 0xbb, 0xbf], "x\n"), "a.log").bomLength, 3);
  assert.deepEqual(sniffFormat(bytes([0x1f, 0x8b, 8, 0]), "a.log.gz"), {
    format: "gzip",
    bomLength: 0,
    refusal: null,
  });
  for (
    const text of [
      "BZh9 is not bzip2 without its block magic\n",
      "PK 2024-05-01 a line that starts with PK\n",
      "LPKSHHRH is a text line without the journal's zero bytes after it\n",
      "LZIP version 2 started\n",
      "7z archive made\n",
      "Rar! what\n",
      "SQLite format 3 text without the NUL\n",
      "ElfFile text\n",
      "\n\r\r\nERROR shown\n", // starts like pcapng's block type, without its byte-order magic
      "\n\r\r\nERROR shown, and a longer line after the first bytes of a block\n",
      "BZh91AY&SY is printable: without a byte no text holds after it, text\n",
      "BZh9",
      "BZh",
      "7zXZ is not xz without its 0xFD\n",
      "!<arch>\n is an ar magic, but what follows is no member header\n",
      "MZ 2024-05-01 starts like a DOS program, has no NUL\n",
      "%PDF-1.4 printed by a logger, text after\n",
      "x^ a line that starts with a valid zlib header (0x785E % 31 == 0)\n",
      "x\u00DA a line with x and a Latin capital U with acute, in UTF-8\n",
      "MSCF text\n",
      "LfLe without the header size before it\n",
      "sNaPpY\n",
      "]]] a bracketed line\n",
      `${"x".repeat(256)} ustar in the text at 257\n`,
      "", // empty
      "a", // shorter than every magic
      "2024-05-01 10:00:00 ERROR \u00e9chec c\u00f4t\u00e9 serveur: \u65e5\u672c\u8a9e \u{1F600}\n".repeat(
        60,
      ),
      "\x1b[31mERROR\x1b[0m colour codes\b, tabs\tand form feeds\f are text\n".repeat(60),
    ]
  ) {
    assert.equal(sniffFormat(enc.encode(text), "app.log").format, "text", JSON.stringify(text));
  }
});

Deno.test("sniffFormat: a Latin-1 log, a log after a copytruncate NUL run, or with NULs inside, is text", () => {
  // iconv -f utf-8 -t latin1: each accented letter is one byte that is not UTF-8 (E9, F4, E0)
  const latin1 = new Uint8Array(
    [..."2024-05-01 10:00:00 ERROR \u00e9chec de la requ\u00eate c\u00f4t\u00e9 serveur, d\u00e9lai d\u00e9pass\u00e9 \u00e0 10h\n"
      .repeat(80)].map((c) => c.charCodeAt(0)),
  );
  const share = nonTextShare(latin1.subarray(0, SNIFF_BYTES));
  assert.ok(
    share.nonText / share.judged > 0.05 && share.nonText / share.judged < BINARY_SHARE / 2,
    `${share}`,
  );
  assert.equal(sniffFormat(latin1.subarray(0, SNIFF_BYTES), "fr.log").format, "text");
  const log = enc.encode("2024-05-01 10:00:00 ERROR x\n".repeat(200));
  assert.equal(sniffFormat(bytes(new Array(SNIFF_BYTES).fill(0)), "app.log").format, "text", "all NULs");
  assert.equal(
    sniffFormat(bytes(new Array(3000).fill(0), [...log]).subarray(0, SNIFF_BYTES), "a").format,
    "text",
  );
  assert.equal(
    sniffFormat(
      bytes([...log.subarray(0, 1000)], new Array(2000).fill(0), [...log]).subarray(0, SNIFF_BYTES),
      "a",
    )
      .format,
    "text",
    "a NUL run in the middle (a crash)",
  );
  // 63 judged bytes of noise say nothing; 64 do
  assert.equal(sniffFormat(bytes([0xff, 0xfe - 1], [...noise(61)]), "a").format, "text");
});

Deno.test("nonTextShare: counts invalid UTF-8 and controls, not valid sequences, NUL holes or a cut sequence", () => {
  // a b | 01 | FF | é (C3 A9) | 16 NULs (a hole) | c | 00 00 (a short run) | d | E2 82 (cut by the end)
  const b = bytes("ab", [1, 0xff, 0xc3, 0xa9], new Array(16).fill(0), "c", [0, 0], "d", [0xe2, 0x82]);
  assert.deepEqual(nonTextShare(b), { judged: 10, nonText: 4 });
  // overlong (C0 80, E0 80 80), a surrogate (ED A0 80), beyond U+10FFFF (F4 90 80 80): each byte counted
  assert.deepEqual(
    nonTextShare(bytes([0xc0, 0x80, 0xe0, 0x80, 0x80, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80])),
    {
      judged: 12,
      nonText: 12,
    },
  );
  assert.deepEqual(nonTextShare(bytes("\u{1F600}\u65e5\x1b[0m\t\r\n")), { judged: 14, nonText: 0 });
});

Deno.test("sniffFormat: login records have no magic: known by name and a NUL among the first bytes", () => {
  const record = padded(bytes([7, 0, 0, 0, 0x39, 0x30, 0, 0], "pts/0"));
  for (const name of ["wtmp", "var/log/btmp", "wtmp.1", "btmp-20240501", "lastlog", "faillog"]) {
    assert.equal(sniffFormat(record, name).format, "utmp", name);
  }
  assert.equal(sniffFormat(record, "wtmp").refusal?.instead, "last -f FILE");
  assert.equal(sniffFormat(record, "lastlog").refusal?.instead, "lastlog");
  assert.equal(sniffFormat(record, "app.log").format, "text", "another name: text with NULs");
  assert.equal(sniffFormat(bytes("text\n"), "wtmp").format, "text", "a text file named wtmp");
});

Deno.test("sniffGzipInner: a gzip log holding a tar, a journal or UTF-16 is refused; a gzip text log is read", () => {
  const tgz = gzipSync(padded(tarHeader(false), 4096));
  assert.deepEqual(sniffGzipInner(tgz, "logs.tar.gz"), {
    format: "gzip+tar",
    bomLength: 0,
    refusal: {
      kind: "unsupported_format",
      what: "a tar archive (inside gzip)",
      instead: "tar -tzvf FILE, then tar -xzOf FILE MEMBER",
    },
  });
  const journal = gzipSync(padded(bytes("LPKSHHRH", [0, 0, 0, 0, 0x1f])));
  assert.equal(
    sniffGzipInner(journal, "system.journal.gz").refusal?.instead,
    "gzip -dc FILE > OUT, then journalctl --file OUT",
  );
  const utf16 = gzipSync(bytes([0xff, 0xfe], "2\x000\x00"));
  assert.equal(sniffGzipInner(utf16, "a.log.gz").refusal?.kind, "unsupported_encoding");
  const text = gzipSync(enc.encode("2024-05-01 10:00:00 INFO x\n".repeat(1000)));
  assert.deepEqual(sniffGzipInner(text, "a.log.gz"), { format: "gzip", bomLength: 0, refusal: null });
  // A gzip cut after 10 bytes, or damaged: read (and the read reports corrupt_gzip), not refused here.
  assert.equal(sniffGzipInner(text.subarray(0, 10), "a.log.gz").format, "gzip");
  assert.equal(sniffGzipInner(bytes([0x1f, 0x8b, 8, 0, 0xff, 0xff, 0xff]), "a.log.gz").format, "gzip");
  // Binary data inside gzip.
  assert.equal(sniffGzipInner(gzipSync(noise(5000)), "a.log.gz").format, "gzip+binary");
  // A bomb: 2 KiB of compressed zeros is far more than the sniff keeps; it stays a bounded call.
  const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024));
  assert.equal(sniffGzipInner(bomb, "bomb.gz").format, "gzip");
});

/** A gzip member made by hand (RFC 1952) with a comment (FCOMMENT) of `comment` bytes before its data. */
function gzipWithComment(data: Uint8Array, comment: number): Uint8Array {
  const plain = gzipSync(data);
  const header = bytes([0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 3], "c".repeat(comment), [0]);
  // the deflate data and trailer (CRC-32, size) of gzipSync's own member, whose header is 10 bytes
  return bytes([...header], [...plain.subarray(10)]);
}

Deno.test("sniffGzipInner: xz after a long gzip comment is found; a header over the limit is refused", () => {
  const xz = bytes([0xfd], "7zXZ", [0, 0, 4, 0xe6, 0xd6, 0xb4, 0x46], [...noise(6000)]);
  const hidden = gzipWithComment(xz, 3000);
  assert.deepEqual(
    gunzipSync(hidden),
    Buffer.from(xz),
    "a valid gzip file (zlib's gunzip gives the xz back)",
  );
  // its deflate data starts at byte 3011, past the 2048 compressed bytes the sniff used to look at
  const s = sniffGzipInner(hidden, "app.log.gz");
  assert.equal(s.format, "gzip+xz");
  assert.equal(s.refusal?.instead, "gzip -dc FILE > OUT, then xz -dc OUT");
  // the same through a reader of the file (as log_file.ts gives it)
  let end = 0;
  const reader = (o: number, n: number) => {
    end = Math.max(end, o + n);
    return hidden.subarray(o, o + n);
  };
  assert.equal(sniffGzipInner(reader, "a.gz").format, "gzip+xz");
  assert.equal(end, 3011 + 64 * 1024, "reads the header, then at most 64 KiB of compressed data");
  // deflate that gives little per compressed byte: incompressible data (stored blocks) still gets there
  const text = gzipWithComment(enc.encode("2024-05-01 INFO x\n".repeat(5000)), 60000);
  assert.deepEqual(sniffGzipInner(text, "a.log.gz"), { format: "gzip", bomLength: 0, refusal: null });
  const long = gzipWithComment(xz, GZIP_HEADER_LIMIT + 1);
  assert.equal(sniffGzipInner(long, "a.log.gz").format, "gzip+long-header");
  // a raw deflate start that is stored (uncompressed) data still counts as the member's content
  assert.equal(
    sniffGzipInner(bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3], [...deflateRawSync(xz, { level: 0 })]), "a")
      .format,
    "gzip+xz",
  );
});

Deno.test("refusalNote: the listing's short form", () => {
  assert.equal(
    refusalNote("/var/log/apt/eipp.log.xz", {
      kind: "unsupported_format",
      what: "xz-compressed",
      instead: "xz -dc FILE",
    }),
    "xz-compressed; run `xz -dc '/var/log/apt/eipp.log.xz'` outside logpeek",
  );
});

Deno.test("refusalText names the file (quoted for a shell) and the command to run instead", () => {
  assert.equal(
    refusalText("apt/eipp.log.xz", {
      kind: "unsupported_format",
      what: "xz-compressed",
      instead: "xz -dc FILE",
    }, "/var/log/apt/eipp.log.xz"),
    "apt/eipp.log.xz is xz-compressed; logpeek reads plain-text (UTF-8) and gzip logs only, and does not " +
      "read it as text: run `xz -dc '/var/log/apt/eipp.log.xz'` outside logpeek instead",
  );
  assert.match(
    refusalText(
      "it's.xz",
      { kind: "unsupported_format", what: "xz-compressed", instead: "xz -dc FILE" },
      "/l/it's.xz",
    ),
    /xz -dc '\/l\/it'\\''s\.xz'/,
  );
});
