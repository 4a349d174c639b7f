/**
 * # src/core/
 *
 * What every layer shares and that depends on nothing: expected failures (`errors.ts`), limits from the
 * environment (`config.ts`), the version (`version.ts`), small words (`plural.ts`), cutting text on a character boundary (`text_cut.ts`), sealing a payload with an HMAC
 * (`seal.ts`), keeping the best N of many (`best_of.ts`), letting the event loop turn in long work (`turn.ts`).
 * Imports no other layer.
 *
 * Layers, highest first: cli, server, tools, state, source, read, guard, core; an import goes to
 * the same layer or a lower one (`tests/layers_test.ts`; ARCHITECTURE.md).
 *
 * @module
 */

export {};
