import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { refusalNote, refusalText, SNIFF_BYTES, sniffFormat, sniffGzipInner } from "./format.ts";

const enc = new TextEncoder();
const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...enc.encode(p)] : p)));
const padded = (b: Uint8Array, n = SNIFF_BYTES) => {
  const out = new Uint8Array(Math.max(n, b.length));
  out.set(b);
  return out;
};

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
  ["bzip2", bytes("BZh9", [0x31, 0x41, 0x59, 0x26, 0x53, 0x59])],
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
  ["pcapng", bytes([0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0])],
  ["sqlite", bytes("SQLite format 3", [0, 0x10, 0])],
  ["elf", bytes([0x7f], "ELF", [2, 1, 1])],
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
      "]]] a bracketed line\n",
      `${"x".repeat(256)} ustar in the text at 257\n`,
      "", // empty
      "a", // shorter than every magic
    ]
  ) {
    assert.equal(sniffFormat(enc.encode(text), "app.log").format, "text", JSON.stringify(text));
  }
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
  // A bomb: 2 KiB of compressed zeros is far more than the sniff keeps; it stays a bounded call.
  const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024));
  assert.equal(sniffGzipInner(bomb, "bomb.gz").format, "gzip");
});

Deno.test("refusalNote: the listing's short form", () => {
  assert.equal(
    refusalNote("apt/eipp.log.xz", {
      kind: "unsupported_format",
      what: "xz-compressed",
      instead: "xz -dc FILE",
    }),
    "xz-compressed; run `xz -dc 'apt/eipp.log.xz'` outside logpeek",
  );
});

Deno.test("refusalText names the file (quoted for a shell) and the command to run instead", () => {
  assert.equal(
    refusalText("apt/eipp.log.xz", {
      kind: "unsupported_format",
      what: "xz-compressed",
      instead: "xz -dc FILE",
    }),
    "apt/eipp.log.xz is xz-compressed; logpeek reads plain-text (UTF-8) and gzip logs only, and does not " +
      "read it as text: run `xz -dc 'apt/eipp.log.xz'` outside logpeek instead (the name is relative to its log root)",
  );
  assert.match(
    refusalText("it's.xz", { kind: "unsupported_format", what: "xz-compressed", instead: "xz -dc FILE" }),
    /xz -dc 'it'\\''s\.xz'/,
  );
});
