/**
 * Masking secrets in log text before it reaches a result, an artifact or a trace (issues #3 and #8).
 *
 * Every rule works on one line alone: whether a secret is masked never depends on the lines around it,
 * on a level filter, on a search, on where a tail window or a page starts, or on where a line was cut
 * (issue #8 items 2, 4 and 5). A private key's body line is masked by its own shape, not because its
 * `BEGIN` line was seen.
 *
 * Every rule is linear in its input (issue #8 item 9): the regular expressions start at a literal or a
 * word boundary and either keep their quantifiers bounded or end with a run that always matches (so a
 * failed attempt costs a bounded number of steps), and the rules that must look far ahead (a PEM block's
 * `END` marker, the end of a cut token) are written as single passes over the text.
 *
 * What a reader needs stays: the key name, the token's kind (its public prefix) and the line's shape;
 * only the secret value becomes `***`. A value under a password key ({@linkcode ALWAYS_KEY}) is masked
 * whatever it looks like, whole (a known token's prefix too, and what follows a token masked by its own
 * rule: `password=***`, not `password=AKIA***` and the rest); under another secret key
 * ({@linkcode BY_VALUE_KEY}: `token`, `secret`, `api_key`, …) only when it may be a credential: an object
 * dump (`Token{…}`), a word, a number under 8 digits, a boolean or null stays ({@linkcode notCredential};
 * issue #23 item 5), and a known token alone keeps its prefix (`token=ghp_***`; a token and more is
 * masked whole). What is masked and what is not is listed in docs/security.md, "Secrets are masked"
 * section; `src/guard/redact_test.ts` holds a corpus of secrets and look-alikes.
 *
 * @module
 */

/** The mask that replaces a secret value. */
export const MASK = "***";

/**
 * Secret key names whose value is masked whatever it looks like (the "always" keys): the whole key, or
 * its last `_`/`-`/`.` part(s), is one of these. A password is chosen by a person and may be anything:
 * NIST SP 800-63B §5.1.1.2 has verifiers accept every printable ASCII character, blanks and Unicode, and
 * set no composition rules, so no shape tells a password from a word (`password=summer`).
 */
const ALWAYS_KEY = String.raw`[A-Za-z0-9_.-]{0,64}?(?:password|passwd|pwd|passphrase)`;

/**
 * Secret key names whose value is masked by its shape (the "by value" keys, issue #23 item 5): the whole
 * key, or its last part(s), is one of these, and `secret` also with up to three parts after it (Rails'
 * `secret_key_base`, `secret_value`: the value decides); `sig` (an Azure SAS signature) only as a whole key. These
 * names are also used for things that are not credentials (Android's `token=Token{9f4ef63 …}` window
 * tokens, `secret=Secret(name=db)` object dumps, `token_count`-like words and counters), and the
 * credentials they name are made by a machine (see {@linkcode notCredential}). Session ids are not here:
 * a ZooKeeper `sessionid: 0x14ed…` is an identifier, not a credential (issue #8 item 6); session cookies
 * are masked by the cookie rule.
 */
const BY_VALUE_KEY =
  String.raw`(?:[A-Za-z0-9_.-]{0,64}?(?:secret(?:[_-]?[A-Za-z0-9]{1,16}){0,3}|token|api[_-]?key|apikey|` +
  String.raw`access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?|` +
  String.raw`account[_-]?key)|sig)`;

/**
 * Values that are not secrets even under a secret key name: empty-likes, and the placeholders loggers
 * write for a hidden value (Kafka's config dump `[hidden]`, Rails' `[FILTERED]`; the `]` may be left
 * out, as a bare value ends before it).
 */
const HARMLESS =
  /^(?:\*+|null|nil|<nil>|none|true|false|undefined|redacted|\[(?:redacted|hidden|filtered|masked)\]?|-|)$/i;

/** An environment reference (`$DB_PASS`, `${X}`, `%X%`): the value is elsewhere. */
const REFERENCE = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%|<[^>]*>)$/;

/**
 * Words that follow `password:` or `--password` in prose ("password: too short", "flag --password is
 * deprecated"), never as the secret. Only the `key: value` and `--password value` forms consult them: a
 * value after `=` is always masked.
 */
const PROSE = new Set(
  ("a an the is was are be been to and or not no for of in on at by with without from as if when which " +
    "that this it its has have had must may will should can cannot required missing given set changed " +
    "change reset expired invalid incorrect wrong accepted rejected denied failed ok updated empty unset " +
    "ignored deprecated option flag argument field instead nothing too prompt prompted hidden omitted")
    .split(" "),
);

interface Rule {
  re: RegExp;
  /**
   * Lower-case texts of which every match holds at least one: a line whose lower-cased text holds none
   * is not tested (a gate, for speed: testing 25 expressions on every line costs ~3 µs). Masking inserts
   * only `***` and blanks, so a rule's texts (none has `*` or a blank) are in the line as masked by the
   * rules before it only if they were in the line as read.
   */
  need: string[];
  /**
   * Builds the replacement from the match's groups; returns the match unchanged to skip it. `after` is
   * the text that follows the match (for a look at what comes next).
   */
  mask: (m: string, groups: string[], after: string) => string;
}

const keepPrefix = (prefixLen: number) => (m: string) => m.slice(0, prefixLen) + MASK;
const unquote = (
  v: string,
) => (/^["']/.test(v) ? v.slice(1, v.endsWith(v[0]) && v.length > 1 ? -1 : undefined) : v);
/**
 * True for a password-like value that must stay: empty-like (a mask alone, `***`, among them) or a
 * reference to a value elsewhere. Not a value that an earlier rule masked only in part
 * (`AKIA***` followed by `/myRealPassw0rd`, `eyJ***`): a password is masked whole, its prefix too.
 */
const keepPassword = (inner: string) => HARMLESS.test(inner) || REFERENCE.test(inner);
/**
 * True for a value that must stay: as {@linkcode keepPassword}, or a known token that an earlier rule
 * masked whole, its public prefix kept (`ghp_***`, `npm_***`). A value that holds a mask and more
 * (`ghp_***` then `/tail-Secret-9`: the token rule masked its token, the rest is the value's) is masked
 * whole.
 */
const keep = (inner: string) => keepPassword(inner) || maskedToken(inner);
/**
 * True for a known token masked whole by its rule, a {@linkcode TOKEN_PREFIX} and the mask and no more,
 * or a private key masked by {@linkcode maskKeyBlocks}: its markers and the mask (and `\n` escapes).
 */
const maskedToken = (v: string) =>
  (/^[\w.-]{2,12}\*\*\*$/.test(v) && TOKEN_PREFIX.test(v)) || MASKED_KEY.test(v);
/** A private key as {@linkcode maskKeyBlocks} masks it: BEGIN, the mask, END (when it was there). */
const MASKED_KEY = /^-----BEGIN [A-Z0-9 ]{1,80}-----\*\*\*(?:-----END [A-Z0-9 ]{1,80}-----(?:\\[nr])*)?$/;
/** True when `v` (unquoted) is a word of prose or repeats its own key (`Token: Token { kind: … }`). */
const prose = (v: string, key: string) => {
  const w = v.toLowerCase().replace(/[.,!?]$/, "");
  return PROSE.has(w) || w === key.toLowerCase();
};

/** A quoted value, possibly cut before its closing quote, or a bare value. Always matches to its end. */
const VALUE = String
  .raw`("(?:[^"\\]|\\.)*(?:"|\\?$)|'[^']*'?|\\"(?:[^"\\]|\\[^"])*(?:\\"|\\?$)|[^\s&;,"')}\]]+)`;

/**
 * The start of an object dump after a by-value key, in place of a bare or quoted value: a type name (or
 * nothing) and its opening bracket (`Token{`, `Secret(`, `Foo<`, `[`, `{`, `(`; Java's `Foo@1a2b3c`
 * identity form, `android.os.BinderProxy@5d7e4c1`). The by-value rule does not match before one, so the
 * dump's own fields are read by every rule (a `password=` inside one is masked). Bounded: a type name of
 * at most 100 characters.
 */
const DUMP = String
  .raw`(?:\\?["'])?(?:[A-Za-z_$][\w$.]{0,100}(?:[{(\[<]|@[0-9a-fA-F]{4,16}(?![\w@.]))|[{(\[<])`;

/** A quoted value that is an object dump or a collection (`"Token{abc}"`, `"Foo@1a2b"`, `"[a, b]"`). */
const DUMP_INNER = /^(?:(?:[A-Za-z_$][\w$.]{0,100} ?)?[{(\[<]|[A-Za-z_$][\w$.]{0,100}@[0-9a-fA-F]{4,16}$)/;

/** A number under 8 digits: an integer, a decimal (its fraction any length), or hex `0x` + up to 7. */
const SHORT_NUMBER = /^[+-]?(?:\d{1,7}(?:\.\d+)?(?:e[+-]?\d{1,3})?|\.\d+|0x[0-9a-f]{1,7})$/i;

/** Words that say a value is absent or a state, beside {@linkcode HARMLESS}. */
const STATE = /^(?:yes|no|on|off|empty|n\/a|na|nan|unknown|\[\]|\{\}|"{2}|'{2})$/i;

/**
 * One word of a plain word's parts: lower case, upper case, or capitalised / camel case / Pascal case
 * with humps of at least two lower-case letters or of capitals (an acronym: `XMLHttpRequest`, `iPhone`,
 * `ContainerToken`). A run of mixed case such as `aZxQwe` (random) is not one.
 */
const WORD_PART =
  /^(?:[a-z]+|[A-Z]+|(?:[a-z]+|[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z][a-z]))(?:[A-Z][a-z]{2,}|[A-Z]{2,}(?=[A-Z][a-z]|$)|[A-Z]$)*)$/;
/** Six consonants in a row (`y` counted a vowel): rare in words, common in random letters. */
const CONSONANT_RUN = /[bcdfghjklmnpqrstvwxz]{6}/;

/** A word's humps: a capitalised or lower-case run, or an acronym (`XML` in `XMLHttpRequest`). */
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;

/**
 * True when `part` (letters only) reads as a word: {@linkcode WORD_PART}'s casing, at most 40 letters,
 * and each hump of 10 letters or more with at least one vowel in five and no {@linkcode CONSONANT_RUN}
 * (random letters of 16 have such a run with chance ~90 %; English words almost never: `latchstring`).
 */
function wordShaped(part: string): boolean {
  if (part.length > 40 || !WORD_PART.test(part)) return false;
  for (const hump of part.match(HUMP) ?? []) {
    if (hump.length < 10) continue;
    const lower = hump.toLowerCase();
    const vowels = lower.length - lower.replace(/[aeiouy]/g, "").length;
    if (vowels * 5 < lower.length || CONSONANT_RUN.test(lower)) return false;
  }
  return true;
}

/**
 * A known token prefix (the token rules above, `sk-` and `-----BEGIN` too): a value that starts with one
 * is a credential even when too short for its own rule (`api_key=ghp_short`).
 */
const TOKEN_PREFIX =
  /^(?:gh[pousr]_|github_pat_|glpat-|xox[abprsoe]-|[sr]k_(?:live|test)_|sk-|whsec_|A(?:KIA|SIA|GPA|IDA|ROA|IPA|NPA|NVA)|AIza|ya29\.|eyJ|npm_|SG\.|hv[sbr]\.|-----BEGIN)/;

/**
 * True when a value under a by-value key ({@linkcode BY_VALUE_KEY}) is surely not a credential, so it
 * stays: already masked, empty-like or a reference ({@linkcode keep}); a state (`yes`, `off`, `n/a`); a
 * number under 8 digits; an object dump ({@linkcode DUMP_INNER}); a plain word or words (letters only,
 * each part {@linkcode wordShaped}, joined by `-`, `_`, `.` or a blank: `ContainerToken`, `db-credentials`,
 * `not available`) that does not start with a {@linkcode TOKEN_PREFIX}. Anything else is masked — a value
 * with a digit, a symbol or random letters, a UUID, a hex or base64 run, a known token prefix — so a
 * missed kind of non-secret costs a mask, never a leak.
 *
 * @param inner The value, unquoted.
 */
function notCredential(inner: string): boolean {
  if (keep(inner) || STATE.test(inner) || SHORT_NUMBER.test(inner) || DUMP_INNER.test(inner)) return true;
  if (inner.length > 200 || TOKEN_PREFIX.test(inner) || !/^[A-Za-z]+(?:[-_. ][A-Za-z]+)*$/.test(inner)) {
    return false;
  }
  return inner.split(/[-_. ]/).every(wordShaped);
}

/**
 * The separator between a key and its value: `=`, `:`, Ruby's and Perl's `=>` (a Rails `Parameters:`
 * hash), with blanks and quotes (JSON, escaped JSON).
 */
const SEP = String.raw`(\\?["']?\s*[=:]>?\s*|=)`;
/** What may come before a key name: the line's start, a blank, a separator, a bracket, a quote. */
const LEAD = String.raw`(^|[\s?&;,:({\['"]|\\")`;

/** `lead`, `key`, `sep` and the mask in the value's quotes (a bare value after `"key": ` is quoted). */
function maskValue(lead: string, key: string, sep: string, v: string, bare: boolean): string {
  const q = bare ? (/^\\?["']/.exec(sep)?.[0] ?? "") : v.startsWith('\\"') ? '\\"' : v[0];
  return `${lead}${key}${sep}${q}${MASK}${q}`;
}

const RULES: Rule[] = [
  // Authorization headers.
  {
    re:
      /\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(bearer|basic|token|digest)\s+([^\s"',;]+)/gi,
    need: ["authorization"],
    mask: (m, [k, sep, scheme, v]) => (HARMLESS.test(v) ? m : `${k}${sep}${scheme} ${MASK}`),
  },
  { re: /\b(bearer)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi, need: ["bearer"], mask: (_m, [k]) => `${k} ${MASK}` },
  // Credentials in URLs.
  {
    // (The scheme starts where a run of scheme characters starts: one attempt per run.)
    re: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s:/@"']{0,200}):([^\s@/"']{1,200})@/gi,
    need: ["://"],
    mask: (m, [scheme, user, pass]) => (HARMLESS.test(pass) ? m : `${scheme}${user}:${MASK}@`),
  },
  // Known token shapes (the public prefix stays).
  // A JWT starts where a run of its characters starts (not after a `-` or `_`): so no two attempts
  // read the same run, and a failed one cannot make the rule quadratic.
  { re: /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/g, need: ["eyj"], mask: keepPrefix(3) },
  {
    re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g,
    need: ["akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva"],
    mask: keepPrefix(4),
  },
  {
    re: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g,
    need: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    mask: keepPrefix(4),
  },
  { re: /\bgithub_pat_[A-Za-z0-9_]{40,}\b/g, need: ["github_pat_"], mask: keepPrefix(11) },
  { re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, need: ["glpat-"], mask: keepPrefix(6) },
  { re: /\bxox[abprsoe]-[A-Za-z0-9-]{10,}\b/g, need: ["xox"], mask: keepPrefix(5) },
  {
    re: /(hooks\.slack\.com\/services\/)[A-Za-z0-9/]+/g,
    need: ["hooks.slack.com/services/"],
    mask: (_m, [p]) => p + MASK,
  },
  {
    re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
    need: ["_live_", "_test_"],
    mask: (m) => m.slice(0, m.indexOf("_", 3) + 1) + MASK,
  },
  { re: /\bwhsec_[A-Za-z0-9+/]{20,}/g, need: ["whsec_"], mask: keepPrefix(6) },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, need: ["aiza"], mask: keepPrefix(4) },
  // Google OAuth 2.0 access tokens (`ya29.`, as Google's sample tokens start): a dump's `tokenValue=`.
  { re: /\bya29\.[0-9A-Za-z_-]{20,}/g, need: ["ya29."], mask: keepPrefix(5) },
  // npm access tokens (`npm_` and 36 letters or digits; `npm_config_cache` is not one).
  { re: /\bnpm_[A-Za-z0-9]{36,}\b/g, need: ["npm_"], mask: keepPrefix(4) },
  // Anthropic, then OpenAI (project, service-account, admin and the older 48-character keys).
  { re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, need: ["sk-ant-"], mask: keepPrefix(7) },
  {
    re: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
    need: ["sk-"],
    mask: (m) => m.slice(0, m.indexOf("-", 3) + 1) + MASK,
  },
  { re: /\bsk-[A-Za-z0-9]{32,}\b/g, need: ["sk-"], mask: keepPrefix(3) },
  // SendGrid (`SG.` id `.` secret), HashiCorp Vault service, batch and recovery tokens.
  { re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,}/g, need: ["sg."], mask: keepPrefix(3) },
  { re: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g, need: ["hvs.", "hvb.", "hvr."], mask: keepPrefix(4) },
  // AWS secret access keys, by their key names.
  {
    re:
      /\b(aws_secret_access_key|secret_access_key|SecretAccessKey)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})\b/g,
    need: ["secret"],
    mask: (_m, [k, sep]) => `${k}${sep}${MASK}`,
  },
  // An AWS secret key written after the word "secret" without a separator ("… secret wJalr…").
  {
    re: /\b(secret(?:[ _-]?access)?(?:[ _-]?key)?)(\s+)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    need: ["secret"],
    mask: (_m, [k, sp]) => `${k}${sp}${MASK}`,
  },
  // Docker's config.json and npm's .npmrc: `"auth": "<base64 of user:pass>"`, `:_auth=<base64>`.
  {
    re: /("_?auth"\s*:\s*"|(?:^|[\s:;,{])_?auth\s*=\s*)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    need: ["auth"],
    mask: (m, [k, v]) => (/[A-Z0-9+/=]/.test(v) ? k + MASK : m),
  },
  // sshpass -p PASS, sshpass -pPASS.
  {
    re: /\b(sshpass\s+-p)(\s*)("[^"]*"?|'[^']*'?|[^\s"']+)/g,
    need: ["sshpass"],
    mask: (m, [k, sp, v]) => (keepPassword(unquote(v)) ? m : `${k}${sp}${MASK}`),
  },
  // curl -u USER:PASS, --user USER:PASS, --user=USER:PASS, -U/--proxy-user USER:PASS (a trial: a curl
  // command line's password reached a template): the user stays, the password is masked.
  {
    // The value is USER:PASS, the user a name (letters, digits, `._@+-`; not a URL, which the URL rule masks).
    re:
      /(^|\s)(-u|-U|--user|--proxy-user)(\s+|=)("[\w.@+-]+:(?!\/\/)[^"]*"?|'[\w.@+-]+:(?!\/\/)[^']*'?|[\w.@+-]+:(?!\/\/)[^\s"']+)/g,
    need: ["-u"],
    mask: (m, [lead, k, sep, v]) => {
      const q = /^["']/.test(v) ? v[0] : "";
      const inner = unquote(v);
      const c = inner.indexOf(":");
      if (c < 1 || c === inner.length - 1 || keepPassword(inner.slice(c + 1))) return m;
      const close = q && v.length > 1 && v.endsWith(q) ? q : "";
      return `${lead}${k}${sep}${q}${inner.slice(0, c)}:${MASK}${close}`;
    },
  },
  // --password PASS (a space, not `=`: that is the key=value rule's).
  {
    re: /(^|\s)(--?(?:password|passwd|pass))(\s+)("[^"]*"?|'[^']*'?|[^\s"'-][^\s"']*)/g,
    need: ["pass"],
    mask: (m, [lead, k, sp, v]) => {
      const inner = unquote(v);
      return keepPassword(inner) || (!/^["']/.test(v) && prose(inner, k)) ? m : `${lead}${k}${sp}${MASK}`;
    },
  },
  // key=value, key: value, JSON ("password": "…", also numbers), Python ('password': '…'), escaped JSON
  // inside a string (\"password\":\"…\"), URL queries (?pwd=…&), `.npmrc`'s `//host/:_password=…`:
  // a password is masked whatever it looks like, whole, also when a token rule above masked its start
  // (`AKIA***` and the rest: {@linkcode keepPassword}).
  {
    re: new RegExp(`${LEAD}(${ALWAYS_KEY})${SEP}${VALUE}`, "gi"),
    need: ["pass", "pwd"],
    mask: (m, [lead, k, sep, v], after) => {
      const inner = v.startsWith('\\"') ? v.slice(2).replace(/\\"$/, "") : unquote(v);
      if (keepPassword(inner) || /^[:=]/.test(inner)) return m;
      const bare = !/^\\?["']/.test(v);
      // "password: value" in prose ("password: too short") or before a structure, not a secret.
      if (bare && sep.includes(":") && (prose(inner, k) || /^\s*[{([]/.test(after))) return m;
      // The working directory (`PWD=/home/app`, `OLDPWD=…`) is a path, not a password.
      if (bare && /pwd$/i.test(k) && /^[~/.]/.test(inner)) return m;
      return maskValue(lead, k, sep, v, bare);
    },
  },
  // The same forms under a by-value key (`token=`, `"api_key":`, `X-Auth-Token:`, `.npmrc`'s
  // `:_authToken=`, Azure's `AccountKey=`/`sig=`): masked unless the value is surely not a credential.
  {
    // (Not before a dump: no match, so nothing to call back for, and the scan goes on inside it.)
    re: new RegExp(`${LEAD}(${BY_VALUE_KEY})${SEP}(?!${DUMP})${VALUE}`, "gi"),
    need: ["secret", "token", "key", "credential", "sig"],
    mask: (m, [lead, k, sep, v]) => {
      const inner = v.startsWith('\\"') ? v.slice(2).replace(/\\"$/, "") : unquote(v);
      if (/^[:=]/.test(inner) || notCredential(inner)) return m;
      return maskValue(lead, k, sep, v, !/^\\?["']/.test(v));
    },
  },
];

/**
 * A regular expression that finds any of `texts`, left out those that hold another of them (a text
 * holding `private key` holds `key`): fewer alternatives, the same lines.
 */
function anyOf(texts: string[]): RegExp {
  return new RegExp(leastTexts(texts).map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"));
}

/** `texts` without duplicates and without those that hold another of them: the same lines hold one. */
function leastTexts(texts: string[]): string[] {
  const all = [...new Set(texts)];
  return all.filter((t) => !all.some((o) => o !== t && t.includes(o)));
}

/** Every rule's {@linkcode Rule.need} texts, each once. */
const NEEDS = [...new Set(RULES.flatMap((r) => r.need))];

/** Per rule (as `RULES`), the places in {@linkcode NEEDS} of its need texts. */
const RULE_NEEDS = RULES.map((r) => r.need.map((n) => NEEDS.indexOf(n)));

/** Finds any of {@linkcode NEEDS} (all of them, global: {@linkcode needsOfLower} steps one character on). */
const NEED_AT = new RegExp(NEEDS.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"), "g");

/** An ASCII code unit lower-cased (`A`–`Z` only, as `toLowerCase` does in ASCII). */
function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/**
 * Per pair of lower-cased ASCII code units (`c0 << 7 | c1`), 0, or 1 + the place in
 * {@linkcode PAIR_NEEDS} of the need texts (their places in {@linkcode NEEDS}) that begin with it
 * (every need text is lower-case ASCII, of two characters at least).
 */
const NEED_PAIRS = new Uint8Array(1 << 14);
const PAIR_NEEDS: number[][] = [];
NEEDS.forEach((n, k) => {
  if (n.length < 2 || /[^ -@[-~]/.test(n)) throw new Error(`a need text not lower-case ASCII: ${n}`);
  const pair = n.charCodeAt(0) << 7 | n.charCodeAt(1);
  if (NEED_PAIRS[pair] === 0) NEED_PAIRS[pair] = PAIR_NEEDS.push([]);
  PAIR_NEEDS[NEED_PAIRS[pair] - 1].push(k);
});

/**
 * Per group of {@linkcode PAIR_NEEDS} (128 entries a group), 1 for each lower-cased ASCII code unit a
 * need text of the group has third (every one for a group with a text of two: `-u`; entry 0 stands for
 * the text's end too).
 */
const PAIR_THIRD = new Uint8Array(PAIR_NEEDS.length * 128);
PAIR_NEEDS.forEach((ks, g) => {
  for (const k of ks) {
    if (NEEDS[k].length === 2) PAIR_THIRD.fill(1, g * 128, g * 128 + 128);
    else PAIR_THIRD[g * 128 + NEEDS[k].charCodeAt(2)] = 1;
  }
});

/**
 * Which of {@linkcode NEEDS} a text holds, lower-cased (1 where it does), or null for none. An ASCII
 * text in one pass over its pairs of characters ({@linkcode NEED_PAIRS}: every place a need text starts
 * has that text's first pair, and there the texts of that pair are compared); any other text lower-cased
 * (`toLowerCase` maps some letters above 127 into ASCII: `K` U+212A to `k`) and searched by
 * {@linkcode NEED_AT}, going on one character after each match's start, every text tried there.
 */
function needsOf(text: string): Uint8Array | null {
  const n = text.length;
  let has: Uint8Array | null = null;
  let prev = n > 0 ? text.charCodeAt(0) : 0;
  if (prev > 127) return needsOfLower(text.toLowerCase());
  if (prev >= 65 && prev <= 90) prev |= 32;
  for (let i = 1; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c > 127) return needsOfLower(text.toLowerCase());
    if (c >= 65 && c <= 90) c |= 32;
    const g = NEED_PAIRS[prev << 7 | c];
    prev = c;
    if (g === 0) continue;
    // The third character (0 at the text's end; one above 127 is seen as the loop reaches it).
    const c3 = i + 1 < n ? lowerAscii(text.charCodeAt(i + 1)) : 0;
    if (c3 < 128 && PAIR_THIRD[(g - 1) * 128 + c3] === 0) continue;
    for (const k of PAIR_NEEDS[g - 1]) {
      const need = NEEDS[k];
      if (i - 1 + need.length > n) continue;
      let j = 2;
      while (j < need.length && lowerAscii(text.charCodeAt(i - 1 + j)) === need.charCodeAt(j)) j++;
      if (j === need.length) (has ??= new Uint8Array(NEEDS.length))[k] = 1;
    }
  }
  return has;
}

/** {@linkcode needsOf} of a text lower-cased, by {@linkcode NEED_AT}. */
function needsOfLower(lower: string): Uint8Array | null {
  NEED_AT.lastIndex = 0;
  let m = NEED_AT.exec(lower);
  if (m === null) return null;
  const has = new Uint8Array(NEEDS.length);
  for (; m !== null; m = NEED_AT.exec(lower)) {
    const p = m.index;
    for (let k = 0; k < NEEDS.length; k++) if (lower.startsWith(NEEDS[k], p)) has[k] = 1;
    NEED_AT.lastIndex = p + 1;
  }
  return has;
}

/** Whether a rule's need texts (places in {@linkcode NEEDS}) include one that `has` marks. */
function needed(has: Uint8Array, needs: number[]): boolean {
  for (const k of needs) if (has[k] === 1) return true;
  return false;
}

/**
 * The first checks of every stage but the key-body one, on lower-cased text (a superset of each):
 * `PRIVATE KEY` (key blocks), any rule's need, `cookie`, `mysql`.
 */
const MAY_HOLD_TEXTS = leastTexts(["private key", "cookie", "mysql", ...RULES.flatMap((r) => r.need)]);
const MAY_HOLD = anyOf(MAY_HOLD_TEXTS);

/** The texts of a pair of bytes that is not ASCII: one empty text, found at once. */
const MAY_HOLD_NOT_ASCII: readonly Uint8Array[] = [new Uint8Array(0)];
/** Each byte as {@linkcode mayHoldSecretBytes} reads it: ASCII in lower case, any byte over 0x7f as 0xff. */
const ASCII_FOLD: Uint8Array = Uint8Array.from(
  { length: 256 },
  (_, c) => (c >= 0x80 ? 0xff : c >= 65 && c <= 90 ? c | 0x20 : c),
);

/**
 * {@linkcode MAY_HOLD_TEXTS} as bytes for {@linkcode mayHoldSecretBytes}, by their first two bytes
 * (index `first << 8 | second`, both lower case ASCII): the texts that start so, or undefined. Every
 * text is ASCII, at least two characters long, without an upper-case letter.
 */
const MAY_HOLD_PAIRS: readonly (readonly Uint8Array[] | undefined)[] = (() => {
  const pairs: (readonly Uint8Array[] | undefined)[] = new Array(65536).fill(undefined);
  for (const t of MAY_HOLD_TEXTS) {
    const b = new TextEncoder().encode(t);
    if (b.length < 2 || b.length !== t.length || t !== t.toLowerCase()) throw new Error(`a gate text: ${t}`);
    const k = (b[0] << 8) | b[1];
    pairs[k] = [...(pairs[k] ?? []), b];
  }
  // A byte over 0x7f (folded to 0xff) beside any other: "may" ({@linkcode textAt} with an empty text).
  for (let x = 0; x < 256; x++) pairs[(0xff << 8) | x] = pairs[(x << 8) | 0xff] = MAY_HOLD_NOT_ASCII;
  return pairs;
})();

/**
 * Per pair of folded bytes ({@linkcode ASCII_FOLD}, index `first << 8 | second`), 0 where
 * {@linkcode MAY_HOLD_PAIRS} has no texts, else the pair's group: one byte load a pair in the hot loop.
 * Pairs with the same texts share a group (every pair with a byte over 0x7f is one).
 */
const MAY_HOLD_GATE = new Uint8Array(65536);
/**
 * Per group of {@linkcode MAY_HOLD_GATE} (256 entries a group, group g at `g << 8`; group 0, of the pairs
 * with no texts, all 0), 1 for each folded byte
 * that a text of the group has third; every one for a group with a text of two bytes (`-u`, the empty
 * text of a pair that is not ASCII). Byte 0 stands for the line's end too, so a text of two at the end is
 * found. A pair whose third byte is not one of its texts' needs no {@linkcode textAt} (issue #26 item 4:
 * ~5 pairs a Loghub line start a gate text, `se`, `co`, `to`, `ke`; few go on as one).
 */
const MAY_HOLD_THIRD: Uint8Array = (() => {
  const groups: (readonly Uint8Array[])[] = [];
  MAY_HOLD_PAIRS.forEach((texts, k) => {
    if (texts === undefined) return;
    let g = groups.indexOf(texts);
    if (g < 0) g = groups.push(texts) - 1;
    if (g >= 255) throw new Error("too many gate pairs for one byte");
    MAY_HOLD_GATE[k] = g + 1;
  });
  const third = new Uint8Array((groups.length + 1) * 256);
  groups.forEach((texts, g) => {
    const row = (g + 1) * 256;
    for (const t of texts) {
      if (t.length <= 2) third.fill(1, row, row + 256);
      else third[row + t[2]] = 1;
    }
  });
  return third;
})();

// ----------------------------------------------------------------------------------------------------
// Private keys.

/** A private key's BEGIN marker: PEM (RSA, EC, DSA, ENCRYPTED, PKCS#8), OpenSSH, PGP (`… BLOCK`). */
const BEGIN_KEY = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
/** A private key's END marker. */
const END_KEY = /-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
/** Where an unterminated one-line key ends: the end of its quoted string. */
const STRING_END = /["']/g;
/** 16 base64 characters in a row (then checked by {@linkcode mixed}). */
const RUN16 = /[A-Za-z0-9+/]{16}/g;
/** A character that is not a blank. */
const NOT_BLANK = /\S/;
/** An escaped line break followed by base64: a one-line PEM in JSON. */
const ESCAPED_BODY = /\\[nr][A-Za-z0-9+/=]/g;

/** True when base64 text has upper and lower case letters and a digit, `+` or `/` (not a word, not hex). */
const mixed = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9+/]/.test(s);

/**
 * The first match at or after a position, cached while the position does not pass it, so that asking
 * for ever later positions costs one pass over the text in all.
 */
class NextMatch {
  #at = -2;
  #len = 0;
  /**
   * @param re A global regular expression.
   * @param text The text.
   * @param ok Accepts or refuses a match (a refused one is passed over by one character).
   */
  constructor(readonly re: RegExp, readonly text: string, readonly ok: (m: string) => boolean = () => true) {}
  /** The index of the first accepted match at or after `from`, or the text's length when there is none. */
  from(from: number): number {
    if (this.#at === -2 || (this.#at >= 0 && this.#at < from)) {
      this.re.lastIndex = from;
      this.#at = -1;
      for (let m = this.re.exec(this.text); m; m = this.re.exec(this.text)) {
        if (this.ok(m[0])) {
          this.#at = m.index;
          this.#len = m[0].length;
          break;
        }
        this.re.lastIndex = m.index + 1;
      }
    }
    return this.#at < 0 ? this.text.length : this.#at;
  }
  /** The length of the match last found. */
  get length(): number {
    return this.#at < 0 ? 0 : this.#len;
  }
}

/** True for a character of a key body read backwards from an END marker: base64, blanks, `\n` escapes. */
const bodyChar = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 ||
  c === 61 || c === 32 || c === 9 || c === 92;

/**
 * Masks private-key material in one line, in one pass from left to right: after a BEGIN marker,
 * everything up to its END marker unless that is blank; when the END is not in the text, up to the end
 * of the quoted string or of the text when it holds key material ({@linkcode ESCAPED_BODY}, or 16 base64
 * characters in a row with mixed case and a digit); before an END marker whose BEGIN is not in the text,
 * the key body that leads up to it.
 */
function maskKeyBlocks(text: string): { text: string; count: number } {
  if (!text.includes("PRIVATE KEY")) return { text, count: 0 };
  const begins = new NextMatch(BEGIN_KEY, text);
  const ends = new NextMatch(END_KEY, text);
  const quotes = new NextMatch(STRING_END, text);
  const escaped = new NextMatch(ESCAPED_BODY, text);
  const runs = new NextMatch(RUN16, text, mixed);
  const evidence = (from: number) => Math.min(escaped.from(from), runs.from(from));
  const out: string[] = [];
  let count = 0;
  let done = 0; // text[0, done) is in out
  let pos = 0;
  while (pos < text.length) {
    const b = begins.from(pos);
    const e = ends.from(pos);
    if (b === text.length && e === text.length) break;
    if (e < b) {
      // An END whose BEGIN is not in the text: the body before it.
      let s = e;
      while (s > done && bodyChar(text.charCodeAt(s - 1))) s--;
      const run = text.slice(s, e);
      RUN16.lastIndex = ESCAPED_BODY.lastIndex = 0;
      if (ESCAPED_BODY.test(run) || new NextMatch(RUN16, run, mixed).from(0) < run.length) {
        const lead = run.length - run.trimStart().length;
        out.push(text.slice(done, s + lead), MASK);
        count++;
        done = e;
      }
      pos = e + ends.length;
      continue;
    }
    const body = b + begins.length;
    const end = ends.from(body);
    const stop = end < text.length ? end : quotes.from(body);
    // Between a BEGIN and its END: everything but blanks is the key (a short body, `MIIEpAIBAAKCAQEA`,
    // has no digit to be told from a word). With no END, only key material (a mention of the marker
    // in prose is not a key).
    if (end < text.length ? NOT_BLANK.test(text.slice(body, end)) : evidence(body) < stop) {
      out.push(text.slice(done, body), MASK);
      count++;
      done = pos = stop;
    } else {
      pos = body;
    }
  }
  if (!count) return { text, count: 0 };
  out.push(text.slice(done));
  return { text: out.join(""), count };
}

/** A key body line on its own: base64 only (blanks around it allowed). */
const BODY_LINE = /^\s*([A-Za-z0-9+/]+)(={0,2})\s*$/;

/**
 * True when `token` has the shape of a line of a base64 key body rather than a word or a hex number:
 * at least 16 characters with upper and lower case letters and a digit, `+` or `/` (random base64 of
 * 16 characters lacks the last with chance 3.6 %, of 64 characters with chance 2 in a million), or a
 * padded last line (`…==`) of at least 8 characters.
 */
function bodyShaped(token: string, padding: string): boolean {
  if (padding) return token.length + padding.length >= 8 && (token.length + padding.length) % 4 === 0;
  return token.length >= 16 && mixed(token);
}

/**
 * Masks a line that is one line of a key's body: the whole line is base64 (PEM, OpenSSH and PGP bodies
 * are 64 to 70 characters a line), or it ends, after a log prefix and a blank, with a base64 run of 56 to
 * 80 characters (a logger that writes a key one line at a time).
 */
function maskBodyLine(text: string): { text: string; count: number } {
  const m = BODY_LINE.exec(text);
  if (m) {
    if (!bodyShaped(m[1], m[2])) return { text, count: 0 };
    const lead = text.length - text.trimStart().length;
    return { text: text.slice(0, lead) + MASK, count: 1 };
  }
  const trimmed = text.trimEnd();
  const at = Math.max(trimmed.lastIndexOf(" "), trimmed.lastIndexOf("\t")) + 1;
  const last = trimmed.slice(at);
  if (at === 0 || last.length < 56 || last.length > 82) return { text, count: 0 };
  const t = /^([A-Za-z0-9+/]+)(={0,2})$/.exec(last);
  if (!t || t[1].length < 56 || !bodyShaped(t[1], "")) return { text, count: 0 };
  return { text: text.slice(0, at) + MASK, count: 1 };
}

/** One redacted text. */
export interface Redacted {
  /** The text with secrets masked. */
  text: string;
  /** How many secrets were masked. */
  count: number;
}

/**
 * True when a match or value holds no mask yet: a value that an earlier rule masked in part and a rule
 * then masks whole is one secret, counted once (when its first mask was made).
 */
const fresh = (m: string) => !m.includes(MASK);

function redact(text: string, bodies: boolean, gated = true): Redacted {
  let count = 0;
  const keys = maskKeyBlocks(text);
  text = keys.text;
  count += keys.count;
  if (bodies && !keys.count) {
    const b = maskBodyLine(text);
    text = b.text;
    count += b.count;
  }
  // Which rules' need texts the line holds (null: none, every rule skipped; ungated: every rule tried).
  const has = gated ? needsOf(text) : null;
  if (gated && has === null) return maskRest(text, count);
  for (let r = 0; r < RULES.length; r++) {
    const rule = RULES[r];
    if (has !== null && !needed(has, RULE_NEEDS[r])) continue;
    rule.re.lastIndex = 0;
    if (!rule.re.test(text)) continue;
    rule.re.lastIndex = 0;
    const whole = text;
    text = text.replace(rule.re, (...args) => {
      const m = args[0] as string;
      // args: the match, its groups, the offset, the whole text (no named groups here).
      const offset = args[args.length - 2] as number;
      const groups = args.slice(1, -2) as string[];
      const out = rule.mask(m, groups, whole.slice(offset + m.length, offset + m.length + 8));
      if (out !== m && fresh(m)) count++;
      return out;
    });
  }
  return maskRest(text, count);
}

/** The stages after the rules (cookies, MySQL's logged passwords), `count` secrets masked before them. */
function maskRest(text: string, count: number): Redacted {
  text = maskCookies(text, () => count++);
  text = maskMysql(text, () => count++);
  return { text, count };
}

// ----------------------------------------------------------------------------------------------------
// Cookies.

/** `Cookie:` or `Set-Cookie:` (also `cookie=`, `"cookie": "`, `cookie name=`), up to its first pair. */
const COOKIE = /\b(set-)?cookie(["']?\s*[:=]\s*["']?|\s+)(?=[^\s=;,"']{1,100}=)/gi;
/** One `name=value` pair of a cookie header, and the `; ` before the next. */
const COOKIE_PAIR = /([^\s=;,"']{1,100}=)("[^"]*"?|[^\s;,"']*)(;\s?)?/y;

/**
 * Masks cookie values: every value of a `Cookie` header (cookies are credentials: which of them holds
 * the session cannot be told by its name), the first pair's value of a `Set-Cookie` (its attributes,
 * `Path=/`, stay). One pass: each pair is read once.
 */
function maskCookies(text: string, counted: () => void): string {
  if (!/cookie/i.test(text)) return text;
  const out: string[] = [];
  let done = 0;
  COOKIE.lastIndex = 0;
  for (let c = COOKIE.exec(text); c; c = COOKIE.exec(text)) {
    let at = c.index + c[0].length;
    for (;;) {
      COOKIE_PAIR.lastIndex = at;
      const p = COOKIE_PAIR.exec(text);
      if (!p) break;
      const valueAt = at + p[1].length;
      if (p[2] && !keep(unquote(p[2]))) {
        out.push(text.slice(done, valueAt), MASK);
        done = valueAt + p[2].length;
        if (fresh(p[2])) counted();
      }
      at = COOKIE_PAIR.lastIndex;
      if (c[1] || !p[3]) break; // Set-Cookie: only its first pair is the cookie
    }
    COOKIE.lastIndex = Math.max(COOKIE.lastIndex, at);
  }
  if (!out.length) return text;
  out.push(text.slice(done));
  return out.join("");
}

// ----------------------------------------------------------------------------------------------------
// mysql -pPASS.

/** A mysql client command; its `-p` option takes the password glued to it. */
const MYSQL = /\bmysql(?:dump|admin|import|check|slap|binlog|pump|sh)?(?=\s)/g;
/** Where a shell command ends. */
const COMMAND_END = /[|;&\n]|$/g;

/** Masks `-pPASS` within each mysql command of the text (not `-p` alone: that prompts; not `-P3306`). */
function maskMysql(text: string, counted: () => void): string {
  if (!text.includes("mysql")) return text;
  const out: string[] = [];
  let done = 0;
  MYSQL.lastIndex = 0;
  for (let m = MYSQL.exec(text); m; m = MYSQL.exec(text)) {
    COMMAND_END.lastIndex = m.index + m[0].length;
    const end = COMMAND_END.exec(text)!.index;
    out.push(
      text.slice(done, m.index),
      text.slice(m.index, end).replace(
        /(\s-p)("[^"]*"?|'[^']*'?|[^\s"']+)/g,
        (all, k: string, v: string) => {
          if (keepPassword(unquote(v))) return all;
          if (fresh(v)) counted();
          return k + MASK;
        },
      ),
    );
    done = end;
    MYSQL.lastIndex = Math.max(end, m.index + m[0].length);
  }
  if (!out.length) return text;
  out.push(text.slice(done));
  return out.join("");
}

// ----------------------------------------------------------------------------------------------------
// The entry points.

/**
 * Masks the secrets in one line of text. Stateless: the same line is masked the same way whatever came
 * before it. Linear in the length of `text` (a 4 MiB adversarial line takes well under a second).
 *
 * @param text The line (no line breaks expected, though JSON-escaped ones are fine).
 * @returns The masked text and how many secrets were masked.
 * @example
 * ```ts
 * import { redactLine } from "./redact.ts";
 * const r = redactLine("login ok user=bob password=hunter2 ip=10.0.0.1");
 * console.assert(r.text === "login ok user=bob password=*** ip=10.0.0.1" && r.count === 1);
 * ```
 */
export function redactLine(text: string): Redacted {
  return redact(text, true);
}

/**
 * False when {@linkcode redactLine} surely masks nothing in `text`: every stage's own first check fails
 * (no `PRIVATE KEY`, no key-body shape, no rule's {@linkcode Rule.need}, no `cookie`, no `mysql`).
 * True means only that it may: call {@linkcode redactLine} to know. About a third of redaction's cost;
 * a regex search uses it to skip masking lines that cannot hold a secret (`read/search.ts`).
 *
 * @param text A line's text.
 * @returns Whether the line may hold a secret.
 * @example
 * ```ts
 * import { mayHoldSecret } from "./redact.ts";
 * console.assert(!mayHoldSecret("2024-05-01 10:00:00 INFO started"));
 * console.assert(mayHoldSecret("login user=bob password=hunter2"));
 * ```
 */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD.test(text.toLowerCase()) || maskBodyLine(text).count > 0;
}

/**
 * {@linkcode mayHoldSecret} on a line's bytes, without decoding them (issue #26, item 2: a regex search
 * asked it of each line it tested, and masked each match, at ~1 µs a line, decoded first). False only for
 * a line of ASCII bytes (so its text is its bytes) that {@linkcode redactLine} leaves as it is: none of
 * {@linkcode mayHoldSecret}'s texts in any case, or each where a rule cannot match, by what is around it
 * ({@linkcode GATE_CONTEXT}: `authentication`, `password for`, `signal`, a URL without an `@`; so it is
 * false for more lines than {@linkcode mayHoldSecret}), and not shaped as a key body line (checked more loosely than
 * {@linkcode maskBodyLine}: no blank inside, or a last word of 56 to 82 characters, is "may"). True for
 * any byte over 0x7f (letters outside ASCII may lower-case to ASCII ones: `K`, the Kelvin sign, is `k`):
 * the caller then decodes and asks {@linkcode mayHoldSecret}. `src/guard/redact_test.ts` checks it
 * against {@linkcode redactLine} and the ungated rules over the corpora's lines, mixed secret lines and
 * each looked-around text before every kind of separator and value.
 *
 * @param b Bytes holding the line (no end of line).
 * @param start Offset of the line's first byte (default 0).
 * @param end Offset past its last byte (default `b.length`).
 * @returns Whether the line `b[start, end)` may hold a secret (or is not ASCII).
 * @example
 * ```ts
 * import { mayHoldSecretBytes } from "./redact.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * console.assert(!mayHoldSecretBytes(bytes("2024-05-01 10:00:00 INFO started")));
 * console.assert(mayHoldSecretBytes(bytes("login user=bob PassWord=hunter2")));
 * ```
 */
export function mayHoldSecretBytes(b: Uint8Array, start = 0, end: number = b.length): boolean {
  // (A byte over 0x7f folds to 0xff, and every pair with it leads to MAY_HOLD_NOT_ASCII.)
  return gateTextIn(b, start, end) || mayBeBodyLine(b, start, end);
}

/**
 * True when `b[start, end)` holds a byte over 0x7f or one of {@linkcode MAY_HOLD_TEXTS} in any case
 * where its {@linkcode GATE_CONTEXT} (if it has one) says a rule may match: {@linkcode mayHoldSecretBytes}
 * but for the key body check. Reads no byte outside the line.
 */
function gateTextIn(b: Uint8Array, start: number, end: number): boolean {
  if (end - start < 2) return false;
  const gate = MAY_HOLD_GATE;
  const third = MAY_HOLD_THIRD;
  const fold = ASCII_FOLD;
  // k: the pair of folded bytes before b[i]; its group's row of MAY_HOLD_THIRD, indexed by b[i] folded.
  let k = (fold[b[start]] << 8) | fold[b[start + 1]];
  for (let i = start + 2; i < end; i++) {
    const c = fold[b[i]];
    if (third[(gate[k] << 8) | c] !== 0 && textAt(b, start, i - 2, end, MAY_HOLD_PAIRS[k]!)) return true;
    k = ((k << 8) | c) & 0xffff;
  }
  return third[gate[k] << 8] !== 0 && textAt(b, start, end - 2, end, MAY_HOLD_PAIRS[k]!);
}

/**
 * True when {@linkcode mayHoldSecretBytes} is false for every line that equals the ASCII line
 * `b[start, end)` but in its runs of digits, up to the key body check: each maximal run of ASCII digits
 * replaced by another (not empty), as two lines of one shape differ (`read/template_shape.ts`
 * `sameShapeBytes`), so that such a line is shown as read when {@linkcode mayBeKeyBodyBytes} of it is
 * false, without its own walk over the gate's texts (issue #26 item 4). Why: a gate text with no digit
 * lies, in any line, inside a stretch of bytes with no digit, and those stretches are the same in both
 * lines; every {@linkcode GATE_CONTEXT} reads only bytes of the line, and no digit ever satisfies one, so
 * it answers alike in both. A gate text with a digit (`ya29.`) is ruled out by its part before its first
 * digit followed by any digit ({@linkcode DIGIT_TEXT_HEADS}; for a text that starts with a digit, any
 * digit). `src/guard/redact_test.ts` checks it over the corpora's lines with their digits changed.
 *
 * @param b Bytes holding the line (no end of line).
 * @param start Offset of the line's first byte.
 * @param end Offset past its last byte.
 * @returns Whether every line of its shape is clear of the gate's texts (false for a line of two bytes or
 *   more not ASCII).
 * @example
 * ```ts
 * import { clearInAnyDigits } from "./redact.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * const clear = (s: string) => clearInAnyDigits(bytes(s), 0, s.length);
 * console.assert(clear("10:00:01 INFO worker 7 started"));
 * console.assert(!clear("token ya11.x") && !clear("login password=1"));
 * ```
 */
export function clearInAnyDigits(b: Uint8Array, start: number, end: number): boolean {
  if (gateTextIn(b, start, end)) return false;
  for (const head of DIGIT_TEXT_HEADS) {
    for (let i = start; i + head.length < end; i++) {
      if (!isAsciiDigit(b[i + head.length])) continue;
      let k = 0;
      while (k < head.length && ASCII_FOLD[b[i + k]] === head[k]) k++;
      if (k === head.length) return false;
    }
  }
  return true;
}

/**
 * Whether the ASCII line `b[start, end)` may be a private key's body line as {@linkcode maskBodyLine}
 * masks it (a loose check: see {@linkcode mayBeBodyLine}); {@linkcode mayHoldSecretBytes} is this or a
 * gate text, so with {@linkcode clearInAnyDigits} of a line of its shape false it is the whole answer.
 *
 * @param b Bytes holding the line (no end of line).
 * @param start Offset of the line's first byte.
 * @param end Offset past its last byte.
 * @returns Whether it may be a key body line.
 */
export function mayBeKeyBodyBytes(b: Uint8Array, start: number, end: number): boolean {
  return mayBeBodyLine(b, start, end);
}

/** Whether `c` is an ASCII digit. */
const isAsciiDigit = (c: number) => c - 48 >>> 0 < 10;

/**
 * For each of {@linkcode MAY_HOLD_TEXTS} that holds a digit, its part before its first digit, as bytes
 * (lower case; empty for a text that starts with a digit): {@linkcode clearInAnyDigits} rules out a line
 * where one is followed by a digit.
 */
const DIGIT_TEXT_HEADS: readonly Uint8Array[] = MAY_HOLD_TEXTS.filter((t) => /[0-9]/.test(t)).map((t) =>
  new TextEncoder().encode(t.slice(0, t.search(/[0-9]/)))
);

/**
 * Whether one of `texts` (lower case, their first two bytes those at `b[i]`) starts at `b[i]`, in any
 * case, and ends by `end`, and its context (if any) holds in the line `b[start, end)`.
 */
function textAt(b: Uint8Array, start: number, i: number, end: number, texts: readonly Uint8Array[]): boolean {
  next: for (const t of texts) {
    if (i + t.length > end) continue;
    for (let k = 2; k < t.length; k++) {
      let c = b[i + k];
      if (c >= 65 && c <= 90) c |= 0x20;
      if (c !== t[k]) continue next;
    }
    const around = GATE_CONTEXT.get(t);
    if (around === undefined || around(b, start, i, end)) return true;
  }
  return false;
}

/** The byte at `b[i]` lower-cased when it is an ASCII capital, or -1 at or past `end`. */
const lowerAt = (
  b: Uint8Array,
  i: number,
  end: number,
) => (i < end ? b[i] | (b[i] >= 65 && b[i] <= 90 ? 32 : 0) : -1);

/** True when the lower-case ASCII `word` is at `b[i]` in any case, ending by `end`. */
function wordAt(b: Uint8Array, i: number, end: number, word: string): boolean {
  if (i + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (lowerAt(b, i + k, end) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * True when a key's separator ({@linkcode SEP}) may start at `b[i]`: an optional `\`, an optional quote,
 * blanks, then `=` or `:` (a superset of both of {@linkcode SEP}'s forms).
 */
function sepAt(b: Uint8Array, i: number, end: number): boolean {
  if (i < end && b[i] === 92) i++;
  if (i < end && (b[i] === 34 || b[i] === 39)) i++;
  while (i < end && asciiBlank(b[i])) i++;
  return i < end && (b[i] === 61 || b[i] === 58);
}

/** A check of what is around a gate text at `b[i]`, in the line `b[start, end)` (it reads nothing outside). */
type GateContext = (b: Uint8Array, start: number, i: number, end: number) => boolean;

/**
 * For the gate texts that common words hold (issue #26 item 4: `authentication failure`, `Failed
 * password for`, `signal`, a URL without a password made ~21 % of the 1 GiB Loghub log's lines "may"),
 * a check of what is around the text at `b[i]` (an ASCII line's bytes, up to `end`), true when a rule
 * may match there. Each is a superset of what every rule whose need text holds that gate text requires
 * there (`src/guard/redact_test.ts` checks the whole gate against the ungated rules):
 *
 * - `auth`: the Docker/npm rule's `auth"` or `auth` then blanks and `=`; the Authorization rule's
 *   `authorization` (so `auth` and then `"`, blanks then `=`, or `orization`).
 * - `pass`: the `--password` rule's `-` before it; `sshpass` (its rule); the password rule's key
 *   ending in `password`, `passwd` or `passphrase` followed by a separator ({@linkcode sepAt}).
 * - `pwd`: the password rule's key ending in `pwd`, then a separator.
 * - `sig`: the by-value rule's key `sig`, then a separator.
 * - `://`: the URL rule's `@` after it, before any blank, `/` or quote (neither the user nor the
 *   password may hold one of these, nor the user an `@`).
 */
const GATE_CONTEXT: ReadonlyMap<Uint8Array, GateContext> = (() => {
  const contexts: [string, GateContext][] = [
    ["auth", (b, _start, i, end) => {
      if (wordAt(b, i + 4, end, "orization") || (i + 4 < end && b[i + 4] === 34)) return true;
      let j = i + 4;
      while (j < end && asciiBlank(b[j])) j++;
      return j < end && b[j] === 61;
    }],
    [
      "pass",
      (b, start, i, end) =>
        (i > start && b[i - 1] === 45) || (i - 3 >= start && wordAt(b, i - 3, end, "ssh")) ||
        (wordAt(b, i, end, "password") && sepAt(b, i + 8, end)) ||
        (wordAt(b, i, end, "passwd") && sepAt(b, i + 6, end)) ||
        (wordAt(b, i, end, "passphrase") && sepAt(b, i + 10, end)),
    ],
    ["pwd", (b, _start, i, end) => sepAt(b, i + 3, end)],
    ["sig", (b, _start, i, end) => sepAt(b, i + 3, end)],
    ["://", (b, _start, i, end) => {
      for (let j = i + 3; j < end; j++) {
        const c = b[j];
        if (c === 64) return true;
        if (c === 47 || c === 34 || c === 39 || asciiBlank(c)) return false;
      }
      return false;
    }],
  ];
  const map = new Map<Uint8Array, GateContext>();
  for (const [text, around] of contexts) {
    const t = MAY_HOLD_PAIRS[(text.charCodeAt(0) << 8) | text.charCodeAt(1)]?.find((x) =>
      new TextDecoder().decode(x) === text
    );
    if (t === undefined) throw new Error(`not a gate text: ${text}`);
    map.set(t, around);
  }
  return map;
})();

/** An ASCII blank as `\s` and `trimEnd` know it: tab, line feed, vertical tab, form feed, CR, space. */
const asciiBlank = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** True for a base64 character: a letter, a digit, `+` or `/`. */
const base64Char = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;

/**
 * False when {@linkcode maskBodyLine} surely masks nothing in the ASCII line `b`: it holds a blank
 * between two other characters (so it is not all base64, `BODY_LINE`), and its last word after a space
 * or tab (once the blanks at its end are left out) is not 56 to 82 characters of base64 (at least 56)
 * and up to two `=`. A blank line too. (Whether the base64 mixes cases and digits is left to
 * `maskBodyLine`.)
 */
function mayBeBodyLine(b: Uint8Array, start: number, end: number): boolean {
  let t1 = end;
  while (t1 > start && asciiBlank(b[t1 - 1])) t1--;
  let t0 = start;
  while (t0 < t1 && asciiBlank(b[t0])) t0++;
  if (t0 === t1) return false;
  let inner = false;
  for (let i = t0; i < t1 && !inner; i++) inner = asciiBlank(b[i]);
  if (!inner) return true;
  let j = t1 - 1;
  while (j >= start && b[j] !== 32 && b[j] !== 9) j--;
  if (j < start) return false;
  const last = t1 - (j + 1);
  if (last < 56 || last > 82) return false;
  let body = t1;
  while (body > j + 1 && t1 - body < 2 && b[body - 1] === 61) body--; // `=` padding
  if (body - (j + 1) < 56) return false;
  for (let i = j + 1; i < body; i++) if (!base64Char(b[i])) return false;
  return true;
}

/**
 * {@linkcode redactLine} without the rules' gates ({@linkcode Rule.need}): every rule is tried on every
 * line. For tests, which check that the gates never change what is masked.
 *
 * @internal
 * @param text The line's text.
 * @returns The same as {@linkcode redactLine} (that is the claim under test).
 */
export function redactLineUngated(text: string): Redacted {
  return redact(text, true, false);
}

/** A BEGIN line of a public block (certificate, public key): its body lines are not secrets. */
const BEGIN_PUBLIC =
  /-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}(?:CERTIFICATE|PUBLIC KEY|CERTIFICATE REQUEST|X509 CRL)-----/;

/**
 * A redactor for the lines of one result, in order. Masking does not depend on the other lines: the one
 * use of order is that, when the lines are contiguous in the log (an unfiltered tail), the base64 body of
 * a certificate or public key whose BEGIN line is in view is left alone (a private key's body is masked
 * whatever is in view).
 */
export class LineRedactor {
  #inPublic = false;
  /** Secrets masked so far. */
  count = 0;
  /**
   * @param enabled False for `--no-redact`: every line passes unchanged.
   * @param contiguous True when consecutive calls get consecutive lines of the log.
   */
  constructor(readonly enabled: boolean, readonly contiguous: boolean) {}

  /**
   * Masks one line.
   *
   * @param text The line's text.
   * @param cut True when the text is only the line's start (cut at `LOGPEEK_MAX_LINE`): a secret that
   *   runs into the cut is masked up to it ({@linkcode redactCutTail}).
   * @returns The text to show.
   */
  line(text: string, cut = false): string {
    if (!this.enabled) return text;
    let bodies = true;
    if (this.contiguous) {
      if (text.includes("-----END ")) this.#inPublic = false;
      else if (BEGIN_PUBLIC.test(text)) this.#inPublic = true;
      else if (this.#inPublic && !BODY_LINE.test(text)) this.#inPublic = false;
      bodies = !this.#inPublic;
    }
    const r = redact(text, bodies);
    this.count += r.count;
    if (!cut) return r.text;
    const t = redactCutTail(r.text);
    this.count += t.count;
    return t.text;
  }
}

/**
 * Token prefixes whose token may run into a cut, each with the characters its token is made of (the
 * index into {@linkcode CUT_CLASSES}).
 */
const CUT_PREFIXES: [RegExp, number][] = [
  [/^gh[pousr]_/, 0],
  [/^github_pat_/, 1],
  [/^glpat-/, 2],
  [/^xox[abprsoe]-/, 3],
  [/^[sr]k_(?:live|test)_/, 0],
  [/^whsec_/, 5],
  [/^(?:AKIA|ASIA)/, 4],
  [/^AIza/, 2],
  [/^ya29\./, 2],
  [/^eyJ/, 6],
  [/^npm_/, 0],
  [/^sk-ant-/, 2],
  [/^sk-(?:proj|svcacct|admin)-/, 2],
  [/^SG\./, 6],
  [/^hv[sbr]\./, 2],
];
/** Where any of the prefixes may start (then the exact one is found by {@linkcode CUT_PREFIXES}). */
const CUT_START =
  /(?<![A-Za-z0-9])(?:gh[pousr]_|github_pat_|glpat-|xox[abprsoe]-|[sr]k_(?:live|test)_|whsec_|AKIA|ASIA|AIza|ya29\.|eyJ|npm_|sk-ant-|sk-(?:proj|svcacct|admin)-|SG\.|hv[sbr]\.)/g;
const CUT_CLASSES: ((c: number) => boolean)[] = [
  (c) => alnum(c),
  (c) => alnum(c) || c === 95,
  (c) => alnum(c) || c === 95 || c === 45,
  (c) => alnum(c) || c === 45,
  (c) => (c >= 65 && c <= 90) || (c >= 48 && c <= 57),
  (c) => alnum(c) || c === 43 || c === 47,
  (c) => alnum(c) || c === 95 || c === 45 || c === 46,
];
const alnum = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/** How far back from a cut {@linkcode redactCutTail} looks: longer tokens were masked whole already. */
const CUT_WINDOW = 4096;

/** Where the run of characters that `inClass` accepts and that reaches `n` starts (not before `stop`). */
function runStart(text: string, n: number, stop: number, inClass: (c: number) => boolean): number {
  let s = n;
  while (s > stop && inClass(text.charCodeAt(s - 1))) s--;
  return s;
}

/** Characters of a token that may run into a cut: base64url, base64, `.`, `~` and `=`. */
const tokenChar = (c: number) =>
  alnum(c) || c === 95 || c === 45 || c === 46 || c === 43 || c === 47 || c === 61 || c === 126;
/** Characters of a URL password (anything but blanks, `@`, `/`, quotes and `:`). */
const passChar = (c: number) =>
  !(c === 32 || c === 9 || c === 64 || c === 47 || c === 34 || c === 39 || c === 58 || c < 32);
/** Characters of a URL's user name. */
const userChar = passChar;

/**
 * Characters of a cut value that {@linkcode redactLine} may have left (a word, a number: see
 * {@linkcode notCredential}; anything else it masked): base64url, `+`, `/`, `~`. Not `=` or `:` (so the
 * run stops at its key's separator), nor a dump's bracket (`token=Token{a64f9|` keeps the dump).
 */
const valueChar = (c: number) => c !== 61 && tokenChar(c);
/** A by-value key and its separator at the end of a text; group 1 is the quote its value opened. */
const CUT_KEY = new RegExp(
  `(?:^|[\\s?&;,:({\\['"])${BY_VALUE_KEY}\\\\?["']?\\s*[=:]>?\\s*(\\\\?["']?)$`,
  "i",
);

/**
 * For a line cut to its first characters: masks, up to the cut, a secret whose start is at the end,
 * where the cut left it too short for {@linkcode redactLine} to know it: a known token prefix followed by
 * the start of its token, a URL password (`scheme://user:pa|`), a `Bearer`/`Basic`/`Token` credential,
 * the value after a by-value key ({@linkcode BY_VALUE_KEY}: `token=abcd|`, whatever it looks like, since
 * its end is not known; not an object dump's start). (A value after a password key, a quoted JSON value,
 * a cookie value and a PEM key body are masked up to the cut by {@linkcode redactLine} itself.) It looks
 * at the last {@linkcode CUT_WINDOW} characters only: constant time per line.
 *
 * @param text The cut text (already redacted).
 * @returns The text and 1 when a tail was masked, else 0.
 */
export function redactCutTail(text: string): Redacted {
  const n = text.length;
  if (!n || text.endsWith(MASK)) return { text, count: 0 };
  const stop = Math.max(0, n - CUT_WINDOW);
  // Where each class's run that reaches the end starts.
  const from = CUT_CLASSES.map((inClass) => runStart(text, n, stop, inClass));
  CUT_START.lastIndex = Math.min(...from);
  for (let m = CUT_START.exec(text); m; m = CUT_START.exec(text)) {
    const rest = text.slice(m.index, m.index + 20);
    for (const [re, cls] of CUT_PREFIXES) {
      const p = re.exec(rest);
      if (!p) continue;
      const after = m.index + p[0].length;
      if (after < n && after >= from[cls]) return { text: text.slice(0, after) + MASK, count: 1 };
    }
  }
  // scheme://user:pass (no @ yet).
  const s = runStart(text, n, stop, passChar);
  if (s < n && text[s - 1] === ":") {
    const u = runStart(text, s - 1, Math.max(stop, s - 201), userChar);
    const pass = text.slice(s);
    if (
      text.slice(u - 3, u) === "://" &&
      /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,30}$/i.test(text.slice(Math.max(0, u - 35), u - 3)) &&
      !/^\d{1,5}$/.test(pass) && !HARMLESS.test(pass)
    ) return { text: text.slice(0, s) + MASK, count: 1 };
  }
  // Bearer abc|, Basic dXNl|.
  const t = runStart(text, n, stop, tokenChar);
  if (t < n && /\b(?:bearer|basic|token)\s+$/i.test(text.slice(Math.max(0, t - 24), t))) {
    return { text: text.slice(0, t) + MASK, count: 1 };
  }
  // token=abcd|, "api_key":"k-12|: a by-value key's value cut short may be a credential's start.
  const v = runStart(text, n, stop, valueChar);
  if (v < n) {
    const k = CUT_KEY.exec(text.slice(Math.max(0, v - 120), v));
    if (k) return { text: text.slice(0, v) + MASK + k[1], count: 1 };
  }
  return { text, count: 0 };
}
