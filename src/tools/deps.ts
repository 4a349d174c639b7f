/**
 * What every tool needs, handed to it by `createServer` (no module-level state).
 *
 * @module
 */

import type { Limits } from "../config.ts";
import type { Root } from "../roots.ts";
import type { ArtifactStore } from "../artifacts.ts";

/** The tools' dependencies. */
export interface ToolDeps {
  /** The log roots. */
  roots: Root[];
  /** Limits and budgets. */
  limits: Limits;
  /** Writes one diagnostic line to stderr (never stdout: stdout carries only protocol). */
  stderr: (line: string) => void;
  /** Where long results spill; null when the state directory cannot be used. */
  artifacts: ArtifactStore | null;
  /** Why there is no artifact store, for the model to read; null when there is one. */
  artifactsOff: string | null;
  /** Mask secrets in returned log text (false for `--no-redact`). */
  redact: boolean;
}

/** Annotations shared by every logpeek tool: they only read, and only the host's own files. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
