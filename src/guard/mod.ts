/**
 * # src/guard/
 *
 * What protects the reader of an answer: secrets masked in log text and traced arguments (`redact.ts`), and
 * text made printable so a log line takes exactly one line of the answer (`printable.ts`). May import core
 * only.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
