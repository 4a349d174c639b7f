/**
 * # src/read/
 *
 * The byte reader and what is computed from it: the scanner with one fixed buffer (`scanner.ts`, SIMD in
 * `simd.ts`), decoding (`decode.ts`), levels (`level.ts`; programs' default formats, detected per file:
 * `log_format.ts`), the returned line (`log_line.ts`), gzip
 * (`gzip_source.ts`), tail, search and level counts (`tail.ts`, `search.ts`, `count_levels.ts`), resume
 * cursors (`cursor.ts`), formats it refuses (`format.ts`), Unicode simple case folding for `ignore_case`
 * (`fold.ts`), context lines (`context.ts`), time windows (`time_window.ts`: each line's time, the order
 * rule; `timestamp.ts`: a line's header timestamp on raw bytes; `instant.ts`: instants, zones, `since`
 * and `until`; `time_seek.ts`: the binary search over timestamps), log templates (`template_miner.ts`, Drain-style). It reads through `ReadableLog` (`readable_log.ts`) and never opens a file. May
 * import guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
