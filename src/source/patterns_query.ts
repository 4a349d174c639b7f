/**
 * `log_patterns`'s query and answer at the backend seam (`backend.ts`).
 *
 * @module
 */

/** A `log_patterns` query. */
export interface PatternsQuery {
  /** The log's name, or a glob over the names. */
  file: string;
}

/** What a `log_patterns` query read, for the tool to render. */
export interface PatternsAnswer {
  /** The log's name, or the glob. */
  file: string;
}
