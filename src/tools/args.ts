/**
 * What every tool's arguments share, so that a mistake teaches (issue #24, "errors that teach"): a level
 * in any case (`error` is `ERROR`), an unknown argument refused with the names the tool takes (zod strips
 * unknown keys quietly, and `pattern=` was ignored), and a limit's refusal that says the limit and what to
 * do instead (zod says "Too big: expected number to be <=200").
 *
 * @module
 */

import { z } from "zod";
import { levelOfName, LEVELS, UNKNOWN } from "../read/level.ts";
import { cutText } from "../core/text_cut.ts";
import { printable } from "../guard/printable.ts";

/**
 * A `level` argument: one of {@linkcode LEVELS}, in any case, or a level word that folds to one
 * (`WARNING`, `err`, `CRITICAL`: {@linkcode levelWord}); the JSON schema lists the names upper case.
 *
 * @example
 * ```ts
 * import { levelArg } from "./args.ts";
 * console.log(levelArg.parse("warn")); // "WARN"
 * ```
 */
export const levelArg = z.preprocess(
  (v) => (typeof v === "string" ? levelWord(v) : v),
  z.enum(LEVELS, {
    error: () =>
      `a level is one of ${
        LEVELS.join(", ")
      } (in any case, or a word that folds to one: WARNING, ERR, CRITICAL)`,
  }),
);

/**
 * A level argument's name: one of {@linkcode LEVELS} in any case, or a level word that folds to one as a
 * line's does (`read/level.ts` `levelOfName`: `WARNING` → WARN, `err` → ERROR, `CRITICAL` → FATAL); any
 * other text as given, upper case (refused by the enum).
 */
function levelWord(v: string): string {
  const t = v.trim().toUpperCase();
  if ((LEVELS as readonly string[]).includes(t)) return t;
  const code = levelOfName(t);
  return code === UNKNOWN ? t : LEVELS[code];
}

/**
 * A tool's arguments as a zod object that refuses an unknown argument, naming it and every argument the
 * tool takes (JSON Schema: `additionalProperties: false`).
 *
 * @param tool The tool's name, for the message.
 * @param shape Its arguments.
 * @returns The strict object schema.
 * @example
 * ```ts
 * import { z } from "zod";
 * import { strictArgs } from "./args.ts";
 * const s = strictArgs("log_tail", { file: z.string() });
 * console.log(s.safeParse({ file: "a", pattern: "x" }).error?.issues[0].message);
 * // unknown argument 'pattern': log_tail takes file
 * ```
 */
export function strictArgs<T extends z.ZodRawShape>(tool: string, shape: T): z.ZodObject<T, z.core.$strict> {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== "unrecognized_keys") return undefined;
      // At most five names, each cut (a call may carry 20,000 keys, or a name of megabytes).
      const named = iss.keys.slice(0, 5).map((k) =>
        `'${printable(k.length > 40 ? `${cutText(k, 40)}…` : k)}'`
      );
      const more = iss.keys.length > 5 ? ` and ${iss.keys.length - 5} more` : "";
      return `unknown argument${iss.keys.length > 1 ? "s" : ""} ${
        named.join(", ")
      }${more}: ${tool} takes ${known}`;
    },
  });
}

/**
 * A whole number from `min` to `max` whose refusal says the range and what to do past it.
 *
 * @param name The argument's name.
 * @param min The least.
 * @param max The most.
 * @param past What to do instead of a larger value (a sentence), or "".
 * @returns The zod number schema.
 */
export function wholeNumber(name: string, min: number, max: number, past = ""): z.ZodNumber {
  const range = `${name} is a whole number from ${min} to ${max}`;
  return z.number({ error: () => range }).int({ error: () => range })
    .min(min, { error: () => range })
    .max(max, { error: () => `${range}${past ? `: ${past}` : ""}` });
}

/**
 * A `file` argument (a log's name as `log_files` lists it; a glob where the tool takes one) whose
 * refusal teaches: a call without it is told it is required and where names come from, rather than
 * zod's "Invalid input: expected string, received undefined".
 *
 * @param globs Whether the tool takes a glob too (for the message).
 * @returns The zod string schema.
 * @example
 * ```ts
 * import { fileArg } from "./args.ts";
 * console.log(fileArg(false).safeParse(undefined).error?.issues[0].message);
 * // file is required: a log's name as log_files lists it
 * ```
 */
export function fileArg(globs: boolean): z.ZodString {
  const what = `a log's name as log_files lists it${globs ? ", or a glob (**/app*.log)" : ""}`;
  return z.string({
    error: (iss) => iss.input === undefined ? `file is required: ${what}` : `file is ${what} (a string)`,
  });
}
