/**
 * logpeek's options, and reading a command line into them (`node:util` `parseArgs`), with every mistake
 * turned into one line (issue #10, items 7 and 11): an unknown option (with a "did you mean" when a known one
 * is close), an option without its value (`--state-dir` last, `--state-dir --no-trace`, `--state-dir=`), a
 * value given to a switch (`--help=x`). `cli.ts` prints the line with a pointer to `--help`; `deno task start`
 * reads its command line here too, so both say the same.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type KnownOption, suggestOption } from "./did_you_mean.ts";
import { shownArg } from "./shown_arg.ts";

/** Every option logpeek takes, in `parseArgs` form. */
export const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
  "state-dir": { type: "string" },
  "no-trace": { type: "boolean" },
  "no-redact": { type: "boolean" },
  "trust-gid": { type: "string", multiple: true },
  json: { type: "boolean" },
  client: { type: "string" },
  binary: { type: "string" },
  bundle: { type: "string" },
} as const;

/** The options' values, as `parseArgs` gives them. */
export interface OptionValues {
  help?: boolean;
  version?: boolean;
  "state-dir"?: string;
  "no-trace"?: boolean;
  "no-redact"?: boolean;
  "trust-gid"?: string[];
  json?: boolean;
  client?: string;
  binary?: string;
  bundle?: string;
}

/** A command line read: its options and positional words (the command, the ROOTs). */
export interface CommandLine {
  values: OptionValues;
  positionals: string[];
}

/** The pointer a usage mistake ends with. */
export const SEE_HELP = "See --help.";

const KNOWN: KnownOption[] = Object.entries(OPTIONS).map(([long, o]) => ({
  long,
  short: "short" in o ? o.short : undefined,
}));

/**
 * Reads `args`.
 *
 * @param args The arguments (no program name).
 * @returns The command line, or `{ error }`: one line without a newline, naming the first mistake
 *   (`unknown option -v; did you mean -V (--version)?`, `option --state-dir needs a value`).
 */
export function parseCommandLine(args: string[]): CommandLine | { error: string } {
  const { tokens } = parseArgs({
    args,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const spec = (OPTIONS as Record<string, { type: string }>)[t.name];
    const raw = shownArg(t.rawName);
    if (!spec) {
      const hint = suggestOption(t.rawName, KNOWN);
      return { error: `unknown option ${raw}${hint ? `; did you mean ${hint}?` : ""}` };
    }
    if (spec.type === "string") {
      // A value that starts with a dash and was not given with `=` is the next option, not a value.
      const missing = t.value === undefined || t.value === "" || (!t.inlineValue && t.value.startsWith("-"));
      if (missing) return { error: `option ${raw} needs a value` };
    } else if (t.inlineValue) {
      return { error: `option ${raw} takes no value` };
    }
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (e) {
    // Not reached for the mistakes above; any other is said in its first line.
    return { error: shownArg(String(e instanceof Error ? e.message : e).split("\n")[0], 200) };
  }
}

/**
 * A command line written back as arguments that read the same: every option as `--name=value` (so a value
 * that starts with a dash stays a value), then `--`, then the positional words (so a ROOT that starts with a
 * dash stays a ROOT).
 *
 * @param c A command line.
 * @returns Arguments for `parseCommandLine` (or logpeek) that give `c` again.
 * @example
 * ```ts
 * import { toArgs } from "./command_line.ts";
 * const a = toArgs({ values: { "state-dir": "/s", "no-trace": true }, positionals: ["/var/log"] });
 * console.assert(a.join(" ") === "--state-dir=/s --no-trace -- /var/log");
 * ```
 */
export function toArgs(c: CommandLine): string[] {
  const out: string[] = [];
  for (const [name, v] of Object.entries(c.values) as [string, string | string[] | boolean | undefined][]) {
    if (v === undefined || v === false) continue;
    if (v === true) out.push(`--${name}`);
    else for (const x of [v].flat()) out.push(`--${name}=${x}`);
  }
  return [...out, "--", ...c.positionals];
}
