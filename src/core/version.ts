/** logpeek's version, as `--version` prints it and the server reports it. */
export const VERSION = "0.1.0";
