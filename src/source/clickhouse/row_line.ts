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
import type { TableRow } from "../log_types.ts";

/** A row as a returned line (`TIME LEVEL BODY`, cut, secrets masked), and the bytes it replaced. */
export function rowLine(
  row: TableRow,
  env: BackendEnv,
  redactor: LineRedactor,
): { line: LogLine; replaced: number } {
  const d = decodeLine(row.body, env.limits.maxLine, row.bodyBytes > row.body.length);
  const head = `${formatInstant(row.timeMs, env.limits.tz)} ${row.rawLevel === "" ? "-" : row.rawLevel} `;
  return {
    line: {
      line_no: null,
      level: LEVELS[levelOfName(row.rawLevel)],
      text: redactor.line(head + d.text, d.cut),
      cut: d.cut,
    },
    replaced: d.replaced,
  };
}
