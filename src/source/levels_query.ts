/**
 * `log_levels`'s query and answer at the backend seam (`backend.ts`).
 *
 * @module
 */

/** A `log_levels` query. */
export interface LevelsQuery {
  /** The log's name, or a glob over the names. */
  file: string;
}

/** What a `log_levels` query read, for the tool to render. */
export interface LevelsAnswer {
  /** The log's name, or the glob. */
  file: string;
}
