/**
 * What every tool needs, handed to it by `createServer` (no module-level state).
 *
 * @module
 */

import type { Limits } from "../config.ts";
import type { Root } from "../roots.ts";

/** The tools' dependencies. */
export interface ToolDeps {
  /** The log roots. */
  roots: Root[];
  /** Limits and budgets. */
  limits: Limits;
  /** Writes one diagnostic line to stderr (never stdout: stdout carries only protocol). */
  stderr: (line: string) => void;
}

/** Annotations shared by every logpeek tool: they only read, and only the host's own files. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
