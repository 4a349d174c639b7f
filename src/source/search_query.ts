/**
 * `log_search`'s query and answer at the backend seam (`backend.ts`).
 *
 * @module
 */

/** A `log_search` query. */
export interface SearchQuery {
  /** The log's name, or a glob over the names. */
  file: string;
}

/** What a `log_search` query read, for the tool to render. */
export interface SearchAnswer {
  /** The log's name, or the glob. */
  file: string;
}
