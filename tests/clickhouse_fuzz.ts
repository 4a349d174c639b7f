/**
 * Texts a query must not be able to escape from (issue #14): quotes, backslashes, NUL, comment markers,
 * braces (query parameter syntax on newer servers) and SQL keywords. Shared by the ClickHouse tests.
 *
 * @module
 */

/** Texts a query must not be able to escape from: quotes, backslashes, NUL, comments, braces, SQL. */
export const FUZZ = [
  "it's",
  "O''Brien",
  "back\\slash",
  "end\\",
  "\\'",
  "nul\u0000byte",
  "-- comment",
  "/* block */",
  "{name:String}",
  "{{x}}",
  "'; DROP TABLE t.canary; --",
  '") OR 1=1 --',
  "UNION SELECT * FROM system.tables",
  "tab\there",
  "caf\u00e9 \u00fcber",
  "%_like_%",
  "\\x41",
  "`ident`",
  "$1 ? :name",
  "a'b\\'c\\\\'d",
];
