/**
 * Limits and budgets, read once at start from the environment.
 *
 * Permission: `--allow-env` for the variables below. Without it the defaults hold, and one line on
 * stderr says so (a set variable is never ignored silently).
 *
 * @module
 */

/** logpeek's limits; every size in bytes, every time in milliseconds. */
export interface Limits {
  /** `LOGPEEK_TAIL_BYTES`: the most `log_tail` reads from a log's end (default 262144, the seed's TAIL_BYTES). */
  tailBytes: number;
  /**
   * `LOGPEEK_SEARCH_MS`: `log_search`'s time budget (default 10000). Issue #12: the time budget governs a
   * page; with the defaults one call reads a whole 1 GiB plain log on this machine (a literal search does
   * in ~0.3–0.7 s, a time window in ~2–4 s).
   */
  searchMs: number;
  /**
   * `LOGPEEK_SEARCH_BYTES`: `log_search`'s byte budget (default 4 GiB, 4294967296: at least 1 GiB, issue
   * #12; a 2 GiB log took 410 calls at the old 5 MiB).
   */
  searchBytes: number;
  /** `LOGPEEK_LEVELS_MS`: `log_levels`'s time budget (default 30000). */
  levelsMs: number;
  /**
   * `LOGPEEK_PATTERNS_MS`: `log_patterns`'s time budget, and that of `log_search` by `template_id`, which
   * mines the same lines again (default 30000; issue #13).
   */
  patternsMs: number;
  /**
   * `LOGPEEK_MAX_TEMPLATES`: the most templates `log_patterns` holds (default 5000, at least 1; issue #13):
   * past it, a line that fits none is counted in `other_lines`.
   */
  maxTemplates: number;
  /** `LOGPEEK_MAX_LINE`: the most characters (Unicode code points) of one returned line (default 1000). */
  maxLine: number;
  /**
   * Bytes per read (1 MiB; the seed's CHUNK is 64 KiB, but 1 MiB pieces cost fewer calls and give the
   * SIMD scans longer runs: level counts 1.11× `rg -c` against 0.99× at 64 KiB, issue #11); not
   * configurable by users, lowered only by tests.
   */
  pieceSize: number;
  /** `LOGPEEK_INLINE_CHARS`: a result whose text would be longer spills to an artifact (default 8000). */
  inlineChars: number;
  /** `LOGPEEK_ARTIFACT_TTL_S`: seconds an artifact is kept (default 86400). */
  artifactTtlS: number;
  /** `LOGPEEK_ARTIFACT_MAX_BYTES`: the most bytes all artifacts may take; oldest go first (default 256 MiB). */
  artifactMaxBytes: number;
  /** `LOGPEEK_TRACE_MAX_BYTES`: the trace file rotates at this size, one previous file kept (default 10 MiB). */
  traceMaxBytes: number;
  /**
   * `LOGPEEK_TZ`: the zone a timestamp that names none is read in (`since`/`until`, issue #12): `UTC`, an
   * IANA name (`Europe/Berlin`) or a fixed offset (`+02:00`), as `Intl.DateTimeFormat` takes it (default
   * `UTC`). Not a number: read by {@linkcode readLimits} apart from the others.
   */
  tz: string;
}

/** The defaults. */
export const DEFAULT_LIMITS: Readonly<Limits> = {
  tailBytes: 262144,
  searchMs: 10000,
  searchBytes: 4 * 1024 * 1024 * 1024,
  levelsMs: 30000,
  patternsMs: 30000,
  maxTemplates: 5000,
  maxLine: 1000,
  pieceSize: 1024 * 1024,
  inlineChars: 8000,
  artifactTtlS: 86400,
  artifactMaxBytes: 256 * 1024 * 1024,
  traceMaxBytes: 10 * 1024 * 1024,
  tz: "UTC",
};

const VARS: [Exclude<keyof Limits, "tz">, string, number][] = [
  ["tailBytes", "LOGPEEK_TAIL_BYTES", 1],
  ["searchMs", "LOGPEEK_SEARCH_MS", 0],
  ["searchBytes", "LOGPEEK_SEARCH_BYTES", 0],
  ["levelsMs", "LOGPEEK_LEVELS_MS", 0],
  ["patternsMs", "LOGPEEK_PATTERNS_MS", 0],
  ["maxTemplates", "LOGPEEK_MAX_TEMPLATES", 1],
  ["maxLine", "LOGPEEK_MAX_LINE", 1],
  ["inlineChars", "LOGPEEK_INLINE_CHARS", 500],
  ["artifactTtlS", "LOGPEEK_ARTIFACT_TTL_S", 1],
  ["artifactMaxBytes", "LOGPEEK_ARTIFACT_MAX_BYTES", 1],
  ["traceMaxBytes", "LOGPEEK_TRACE_MAX_BYTES", 1024],
];

/** The variables that choose the state directory (see `state_dir.ts`). */
export const STATE_ENV_NAMES: readonly string[] = ["LOGPEEK_STATE_DIR", "XDG_STATE_HOME", "HOME"];

/**
 * The variables of a ClickHouse root (issue #14; `source/clickhouse/target.ts`): the user, the password
 * (only ever from here), and the column names.
 */
export const CLICKHOUSE_ENV_NAMES: readonly string[] = [
  "LOGPEEK_CLICKHOUSE_USER",
  "LOGPEEK_CLICKHOUSE_PASSWORD",
  "LOGPEEK_CLICKHOUSE_COLUMNS",
];

/** The names of the environment variables logpeek reads, for `--allow-env=…`. */
export const ENV_NAMES: readonly string[] = [
  ...VARS.map(([, name]) => name),
  "LOGPEEK_TZ",
  ...STATE_ENV_NAMES,
  ...CLICKHOUSE_ENV_NAMES,
];

/**
 * Reads the limits from `env`.
 *
 * @param env Looks a variable up; returns undefined when unset. Throws `Deno.errors.NotCapable` when
 *   the environment may not be read.
 * @param warn Receives one line when the environment may not be read.
 * @returns The limits.
 * @throws {RangeError} when a variable is not a whole number in its range, or `LOGPEEK_TZ` not a zone, naming
 *   the variable.
 */
export function readLimits(env: (name: string) => string | undefined, warn: (msg: string) => void): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  // A variable Deno may not read keeps its default; the others still apply (a trial: a list granted
  // before LOGPEEK_PATTERNS_MS existed stopped reading at it, and said "using defaults" of all).
  const { read, denied } = envReader(env);
  for (const [key, name, min] of VARS) {
    const raw = read(name);
    if (raw === undefined || raw === "") continue;
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new RangeError(
        `${name} must be a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}, got '${raw}'`,
      );
    }
    limits[key] = n;
  }
  const tz = read("LOGPEEK_TZ");
  if (tz !== undefined && tz !== "") limits.tz = checkTz(tz);
  if (denied.length === VARS.length + 1) {
    warn(`logpeek: cannot read the environment (grant --allow-env=${ENV_NAMES.join(",")}); using defaults`);
  } else if (denied.length) {
    warn(
      `logpeek: cannot read ${denied.join(", ")} (add them to --allow-env); their defaults hold, the other ` +
        "variables apply",
    );
  }
  return limits;
}

/**
 * A reader of variables that takes one Deno may not read (`Deno.errors.NotCapable`) as unset, and notes it.
 *
 * @param env Looks a variable up; may throw `Deno.errors.NotCapable`.
 * @returns `read` (undefined for an unset or unreadable variable) and `denied`, the names it could not read
 *   so far (filled as `read` is called).
 * @throws {Error} whatever else `env` throws, from `read`.
 */
export function envReader(
  env: (name: string) => string | undefined,
): { read: (name: string) => string | undefined; denied: string[] } {
  const denied: string[] = [];
  const read = (name: string): string | undefined => {
    try {
      return env(name);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotCapable)) throw e;
      denied.push(name);
      return undefined;
    }
  };
  return { read, denied };
}

/**
 * Checks a zone name for `LOGPEEK_TZ`: one `Intl.DateTimeFormat` knows (IANA names, `UTC`, fixed
 * offsets `+02:00`).
 *
 * @param tz The zone.
 * @returns The zone, canonical as Intl spells it (`utc` → `UTC`).
 * @throws {RangeError} naming the variable and the zone, when Intl does not know it.
 */
export function checkTz(tz: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new RangeError(
      `LOGPEEK_TZ must be a time zone: UTC, an IANA name such as Europe/Berlin, or an offset such as +02:00; got '${tz}'`,
    );
  }
}
