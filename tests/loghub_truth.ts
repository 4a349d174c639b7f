/**
 * The true level of every line of the Loghub samples in `../shared/corpus/loghub/`, read from their
 * `_structured.csv` files (never from logpeek).
 *
 * @module
 */
import { join } from "node:path";
import { parse } from "csv-parse/sync";

/** The seven Loghub samples: each `X_2k.log` has `X_2k.log_structured.csv`, one row per line. */
export const LOGHUB = ["Apache", "HDFS", "Hadoop", "Linux", "OpenSSH", "Spark", "Zookeeper"] as const;

/**
 * A program's own level prefix at the start of a syslog message (the CSV's `Content`): OpenSSH's
 * `error:` and `fatal:` (its log.c writes them for LOG_ERR and LOG_CRIT), xinetd's `warning:`, gpm's
 * `*** info`, logrotate's `ALERT`. Any other level word of the message text is not the line's level.
 */
const PREFIX = /^(?:\*\*\* )?(error:|fatal:|warning:|info |ALERT )/;
const FOLD: Record<string, string> = {
  "error:": "ERROR",
  "fatal:": "FATAL",
  "warning:": "WARN",
  "info ": "INFO",
  "ALERT ": "FATAL",
};

/**
 * Each line's true level, in line order, as logpeek names levels.
 *
 * Apache, HDFS, Hadoop, Spark and Zookeeper: the CSV's `Level` column, upper-cased (its README says
 * these five carry a true level). Linux (whose `Level` column holds the host name) and OpenSSH (no
 * `Level` column): their header fields (month, day, time, host, program, pid) hold no level, so a line
 * has one only when its message starts with the program's own level prefix ({@linkcode PREFIX});
 * otherwise UNKNOWN, whatever level words the message holds.
 *
 * @param dir The `loghub` folder.
 * @param name One of {@linkcode LOGHUB}.
 * @returns One level name per line.
 * @throws When the CSV cannot be read or parsed.
 */
export function trueLevels(dir: string, name: typeof LOGHUB[number]): string[] {
  const rows = parse(Deno.readTextFileSync(join(dir, `${name}_2k.log_structured.csv`)), {
    columns: true,
  }) as Record<string, string>[];
  if (name === "Linux" || name === "OpenSSH") {
    return rows.map((r) => {
      const m = PREFIX.exec(r.Content);
      return m ? FOLD[m[1]] : "UNKNOWN";
    });
  }
  return rows.map((r) => r.Level.toUpperCase());
}

const MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const mon = (m: string) => MON.indexOf(m);
const hms = (t: string) => t.split(/[:,]/).map(Number);

/**
 * Each line's instant (epoch ms, UTC), in line order, from its CSV's columns (never from logpeek); Linux
 * and OpenSSH have no year: 2005, which a test fixes by the copy's modified time (Linux: 2005-08-01,
 * OpenSSH: 2005-12-11).
 *
 * @param dir The `loghub` folder.
 * @param name One of {@linkcode LOGHUB}.
 * @returns One instant per line.
 */
export function csvTimes(dir: string, name: typeof LOGHUB[number]): number[] {
  const rows = parse(Deno.readTextFileSync(join(dir, `${name}_2k.log_structured.csv`)), {
    columns: true,
  }) as Record<string, string>[];
  return rows.map((r) => {
    switch (name) {
      case "HDFS": {
        const d = r.Date, t = r.Time.padStart(6, "0");
        return Date.UTC(
          2000 + +d.slice(0, 2),
          +d.slice(2, 4) - 1,
          +d.slice(4, 6),
          +t.slice(0, 2),
          +t.slice(2, 4),
          +t.slice(4, 6),
        );
      }
      case "Hadoop":
      case "Zookeeper": {
        const [y, m, d] = r.Date.split("-").map(Number);
        const [h, mi, s, ms] = hms(r.Time);
        return Date.UTC(y, m - 1, d, h, mi, s, ms);
      }
      case "Spark": {
        const [y, m, d] = r.Date.split("/").map(Number);
        const [h, mi, s] = hms(r.Time);
        return Date.UTC(2000 + y, m - 1, d, h, mi, s);
      }
      case "Apache": {
        const [, m, d, t, y] = r.Time.split(/\s+/);
        const [h, mi, s] = hms(t);
        return Date.UTC(+y, mon(m), +d, h, mi, s);
      }
      case "Linux": {
        const [h, mi, s] = hms(r.Time);
        return Date.UTC(2005, mon(r.Month), +r.Date, h, mi, s);
      }
      case "OpenSSH": {
        const [h, mi, s] = hms(r.Time);
        return Date.UTC(2005, mon(r.Date), +r.Day, h, mi, s);
      }
    }
  });
}
