/**
 * # src/state/
 *
 * What logpeek keeps in its state directory: the directory itself and the cursor key (`state_dir.ts`), and
 * spilled results (`artifacts.ts`, paged back through the scanner). May import read, guard and core.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
