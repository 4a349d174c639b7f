/**
 * What the local backend's calls are built with: the backend's environment and the local log source (the
 * roots, confined; `local_source.ts`).
 *
 * @module
 */

import type { BackendEnv } from "../backend.ts";
import type { LogSource } from "../log_types.ts";

/** The environment of a call over local files. */
export interface LocalEnv extends BackendEnv {
  /** The logs under the roots: listed, and opened race-free (`local_source.ts`). */
  source: LogSource;
}
