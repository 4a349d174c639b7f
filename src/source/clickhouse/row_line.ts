/**
 * A table's row as a returned line: `TIME LEVEL BODY`, cut at `LOGPEEK_MAX_LINE` characters, secrets masked.
 *
 * @module
 */

import type { LineRedactor } from "../../guard/redact.ts";
import { decodeLine } from "../../read/decode.ts";
import { formatInstant } from "../../read/instant.ts";
import { levelOfName, LEVELS } from "../../read/level.ts";
import type { LogLine } from "../../read/log_line.ts";
import type { BackendEnv } from "../backend.ts";
import type { TableRow } from "./table_types.ts";

/**
 * A row as a returned line: `TIME LEVEL BODY` (the time in RFC 3339 in `LOGPEEK_TZ`, the level as stored,
 * `-` when empty), cut at `LOGPEEK_MAX_LINE` code points in all (as a file's line is), secrets masked; and
 * the invalid UTF-8 bytes it replaced.
 */
export function rowLine(
  row: TableRow,
  env: BackendEnv,
  redactor: LineRedactor,
): { line: LogLine; replaced: number } {
  const max = env.limits.maxLine;
  let head = `${formatInstant(row.timeMs, env.limits.tz)} ${row.rawLevel === "" ? "-" : row.rawLevel} `;
  // The whole line is cut at LOGPEEK_MAX_LINE code points, as a file's line is: the head counts (a long
  // stored level text can fill it).
  const headChars = [...head];
  if (headChars.length >= max) head = headChars.slice(0, max - 1).join("");
  const room = Math.max(1, max - Math.min(headChars.length, max - 1));
  const d = decodeLine(row.body, room, row.bodyBytes > row.body.length);
  const cut = d.cut || headChars.length >= max;
  return {
    line: {
      line_no: null,
      level: LEVELS[levelOfName(row.rawLevel)],
      text: redactor.line(head + d.text, cut),
      cut,
    },
    replaced: d.replaced,
  };
}
