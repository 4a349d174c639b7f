/**
 * What the tools need. Tools are registered on the MCP server in the main thread ({@linkcode ToolDeps}:
 * limits for their descriptions, and a dispatcher) and run where the log files are touched — in the
 * permission-narrowed tool worker (`src/server/tool_worker.ts`), or in-process — with a {@linkcode ToolContext}.
 * No module-level state.
 *
 * @module
 */

import type { Limits } from "../core/config.ts";
import type { LogBackend } from "../source/backend.ts";
import type { ArtifactStore } from "../state/artifacts.ts";
import type { ToolResult } from "./outcome.ts";

/** Everything a tool needs to run. */
export interface ToolContext {
  /** Where the logs come from (the seam, `source/backend.ts`: tools never import an implementation). */
  backend: LogBackend;
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
  /**
   * The key resume cursors are sealed with (HMAC-SHA-256, 32 bytes; `src/read/cursor.ts`): the state
   * directory's `cursor.key`, or one made for this process when there is no usable state directory
   * (`cursorKey` in `src/state/state_dir.ts`). The client never sees it.
   */
  cursorKey: Uint8Array;
}

/** What one call brings besides its arguments: the client's cancellation and progress token. */
export interface CallContext {
  /** Aborted when the client cancels the call (`notifications/cancelled`). */
  signal?: AbortSignal;
  /**
   * Reports progress (`notifications/progress`) when the client asked for it with a progressToken:
   * the file offset reached, the file's size, and a short message. Undefined otherwise.
   */
  progress?: (offset: number, total: number, message: string) => void;
}

/** The part of the MCP SDK's request handler `extra` logpeek uses. */
export interface RequestExtra {
  signal?: AbortSignal;
  _meta?: { progressToken?: string | number };
  // deno-lint-ignore no-explicit-any
  sendNotification?: (n: any) => Promise<void>;
}

/**
 * The {@linkcode CallContext} of one MCP request: its abort signal, and a progress reporter when the
 * client sent a progressToken. No progress is sent once the call is cancelled.
 */
export function callContext(extra?: RequestExtra): CallContext {
  const token = extra?._meta?.progressToken;
  const signal = extra?.signal;
  return {
    signal,
    progress: token === undefined || !extra?.sendNotification ? undefined : (offset, total, message) => {
      if (signal?.aborted) return;
      void extra.sendNotification!({
        method: "notifications/progress",
        params: { progressToken: token, progress: offset, total, message },
      }).catch(() => {});
    },
  };
}

/** Runs a tool by name with validated arguments; never rejects (failures are `isError` results). */
export type Dispatch = (
  tool: string,
  args: Record<string, unknown>,
  call?: CallContext,
) => Promise<ToolResult>;

/** What registering a tool needs. */
export interface ToolDeps {
  /** Limits, quoted in the tools' descriptions. */
  limits: Limits;
  /** Runs the tool. */
  dispatch: Dispatch;
}

/** Annotations shared by every logpeek tool: they only read, and only the host's own files. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
