/**
 * What the tools need. Tools are registered on the MCP server in the main thread ({@linkcode ToolDeps}:
 * limits for their descriptions, and a dispatcher) and run where the log files are touched — in the
 * permission-narrowed tool worker (`src/tool_worker.ts`), or in-process — with a {@linkcode ToolContext}.
 * No module-level state.
 *
 * @module
 */

import type { Limits } from "../config.ts";
import type { Root } from "../roots.ts";
import type { ArtifactStore } from "../artifacts.ts";
import type { ToolResult } from "../outcome.ts";

/** Everything a tool needs to run. */
export interface ToolContext {
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

/** Runs a tool by name with validated arguments; never rejects (failures are `isError` results). */
export type Dispatch = (tool: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** What registering a tool needs. */
export interface ToolDeps {
  /** Limits, quoted in the tools' descriptions. */
  limits: Limits;
  /** Runs the tool. */
  dispatch: Dispatch;
}

/** Annotations shared by every logpeek tool: they only read, and only the host's own files. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
