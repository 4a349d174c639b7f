/**
 * A log template miner (groundwork for issue #13, `log_patterns`): groups lines by the event that wrote
 * them and gives each group a template, the line with each variable part replaced by `<*>`.
 *
 * The grouping follows Drain (He, Zhu, Zheng, Lyu, "Drain: An Online Log Parsing Approach with Fixed
 * Depth Tree", ICWS 2017): a line's tokens (runs of non-space) are masked, then the line goes down a
 * fixed-depth tree, first by its token count, then by its first `depth − 2` masked tokens that hold no
 * digit and no mask (a header's masked fields are skipped, so the keys are the message's first words), and
 * in that leaf joins the template most similar to it
 * when the similarity (Drain's `simSeq`: equal tokens over the tokens, here leaving out the positions
 * masked whole in both, which would make every line of one header alike) is at least `similarity`; a
 * position where they differ becomes `<*>`. Otherwise the line starts a template of its own.
 *
 * Adapted as issue #13 asks:
 * - The template is the whole line, header included; its literal parts are the exact characters of the
 *   lines (double and trailing spaces too): where members differ in a token or in the spaces between two
 *   tokens, that part is `<*>`, so every member matches its template with `<*>` standing for any run of
 *   characters (possibly empty).
 * - Masking before grouping ({@linkcode maskToken}): the tokens every log parser masks (Zhu et al.,
 *   "Tools and Benchmarks for Automated Log Parsing", ICSE-SEIP 2019, the preprocessing regexes of
 *   their benchmark): UUIDs, IPv4 (and port), IPv6, hex ids, block ids, paths holding a digit, numbers
 *   (which covers timestamps' digits), and the header's timestamp words (day and month names among the
 *   first tokens).
 * - Bounded memory: at most `maxTemplates` templates; a line that fits none once the cap is reached is
 *   counted in {@linkcode TemplateMiner.otherLines}, never dropped silently.
 *
 * @module
 */

/** One template and the lines counted under it. */
export interface Template {
  /**
   * Stable id: 16 hex digits of a 64-bit FNV-1a hash of {@linkcode Template.template} (UTF-16 code units),
   * so the same template text has the same id in any run. Computed from the final text: a template's
   * text may gain `<*>` as lines arrive, and its id follows it.
   */
  id: string;
  /** The line with each variable part replaced by `<*>`; literal parts are the lines' exact characters. */
  template: string;
  /** Lines counted under it. */
  count: number;
  /** The first line's number (1-based). */
  firstLine: number;
  /** The last line's number (1-based). */
  lastLine: number;
  /** The first line's text. */
  example: string;
}

/**
 * Drain uses depth 4 and st 0.4–0.7 per log (He et al. 2017); depth 5 and st 0.6 are the best pair of
 * {4,5,6} × {0.4,…,0.7} for the mean GA on the seven Loghub samples (`template_miner_test.ts`).
 */
const DEFAULTS = { maxTemplates: 5000, similarity: 0.6, depth: 5 } as const;

/** The most children a tree node keeps before further first tokens share its `<*>` branch (Drain's maxChild). */
const MAX_CHILDREN = 100;

const WILD = "<*>";

/**
 * The masking rules, tried left to right at each place of a token; each match becomes `<*>`.
 * UUID; IPv4 with an optional port; IPv6 (two or more colons between hex groups, at least one hex
 * letter or `::`); block ids (`blk_-123`); `0x` hex; hex ids of 8 or more hex digits holding a digit;
 * paths holding a digit; numbers (signed, decimals, and the digit groups of times and dates).
 */
const MASK = new RegExp(
  [
    String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`,
    String.raw`(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?![\w.])`,
    String
      .raw`(?<![\w:])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![\w:])(?=[^\w]|$)(?<=[a-fA-F:][0-9a-fA-F]{0,4})`,
    String.raw`blk_-?\d+`,
    String.raw`0[xX][0-9a-fA-F]+`,
    String.raw`(?<![\w])(?=[a-fA-F]*\d)[0-9a-fA-F]{8,}(?!\w)`,
    String.raw`(?:/[\w.\-]*)*/[\w.\-]*\d[\w.\-]*(?:/[\w.\-]*)*`,
    String.raw`[-+]?\d+(?:[.,]\d+)*`,
  ].join("|"),
  "g",
);

/** Day and month names, masked among a line's first tokens (the header's timestamp). */
const DATE_WORD = /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\]?,?$/;
/** How many first tokens may hold the header's timestamp words. */
const HEADER_TOKENS = 4;

/**
 * A token masked: each part matching a masking rule replaced by `<*>`, runs of `<*>` joined by nothing
 * else folded into one.
 *
 * @param token One token (no whitespace).
 * @param index Its place in the line (0-based); the first few may be a header's day or month name.
 * @returns The masked token.
 */
export function maskToken(token: string, index: number): string {
  if (index < HEADER_TOKENS && DATE_WORD.test(token)) return WILD;
  if (!/\d/.test(token)) return token;
  return token.replace(MASK, WILD).replaceAll("<*><*>", WILD);
}

/** A cluster: its tokens (masked text or null for `<*>`), the spaces between them, and its counts. */
interface Cluster {
  /** Masked text per token; null where members differ. */
  tokens: (string | null)[];
  /** Raw tokens of the first line, for positions whose masked text holds no `<*>`. */
  seps: (string | null)[];
  /** Literal (non-wildcard) tokens, for the similarity's denominator. */
  count: number;
  firstLine: number;
  lastLine: number;
  example: string;
  /** The id of the current text, or "" when it must be computed again. */
  id: string;
}

/** Splits a line into its tokens and the whitespace around them: `seps.length === tokens.length + 1`. */
function split(line: string): { tokens: string[]; seps: string[] } {
  const tokens: string[] = [];
  const seps: string[] = [];
  const re = /(\s*)(\S+)/y;
  let p = 0;
  for (;;) {
    re.lastIndex = p;
    const m = re.exec(line);
    if (m === null) break;
    seps.push(m[1]);
    tokens.push(m[2]);
    p = re.lastIndex;
  }
  seps.push(line.slice(p));
  return { tokens, seps };
}

/**
 * 64-bit FNV-1a of a string's UTF-16 code units, as 16 hex digits.
 *
 * @param s The text.
 * @returns The hash.
 */
export function templateId(s: string): string {
  let h1 = 0x811c9dc5 | 0, h2 = 0xcbf29ce4 | 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 16), 0x01000193);
  }
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}

/**
 * Mines templates from lines given one at a time, in Drain's way (see the module's doc).
 *
 * Ids: {@linkcode TemplateMiner.add} returns the id of the template's text as it stands after that line;
 * a later line may turn a literal part of it into `<*>`, and its id then changes with it.
 * {@linkcode TemplateMiner.templates} gives the final ids (the hash of the final text); two clusters
 * whose final texts are equal are given as one template.
 */
export class TemplateMiner {
  readonly #max: number;
  readonly #st: number;
  readonly #prefix: number;
  /** token count → first tokens … → the leaf's clusters. */
  readonly #root = new Map<number, Map<string, unknown>>();
  #clusters = 0;
  #other = 0;
  #total = 0;
  readonly #all: Cluster[] = [];
  /** Every id {@linkcode TemplateMiner.add} returned → its cluster (at most one per literal part lost). */
  readonly #seen = new Map<string, Cluster>();

  /**
   * @param opts.maxTemplates The most templates held (default 5000); past it, unfitting lines are
   *   counted in {@linkcode TemplateMiner.otherLines}.
   * @param opts.similarity Drain's st, in [0, 1] (default 0.5): the least fraction of a template's
   *   tokens a line must share to join it.
   * @param opts.depth Drain's tree depth (default 4, at least 3): the tree uses the token count and the
   *   first `depth − 2` tokens.
   */
  constructor(opts: { maxTemplates?: number; similarity?: number; depth?: number } = {}) {
    this.#max = opts.maxTemplates ?? DEFAULTS.maxTemplates;
    this.#st = opts.similarity ?? DEFAULTS.similarity;
    this.#prefix = Math.max(1, (opts.depth ?? DEFAULTS.depth) - 2);
  }

  /** Lines not counted under any template (the cap was reached and they fit none). */
  get otherLines(): number {
    return this.#other;
  }

  /** Lines given to {@linkcode TemplateMiner.add}. */
  get totalLines(): number {
    return this.#total;
  }

  /**
   * Counts one line.
   *
   * @param line Its text, decoded, without its line break.
   * @param lineNo Its line number, 1-based.
   * @returns The id of the template it was counted under (of the template's text now), or null when it
   *   was counted in {@linkcode TemplateMiner.otherLines}.
   */
  add(line: string, lineNo: number): string | null {
    this.#total++;
    const { tokens, seps } = split(line);
    const masked = tokens.map(maskToken);
    // The tree: token count, then the first tokens (a token with a digit or a mask goes to <*>).
    let node: Map<string, unknown> | undefined = this.#root.get(masked.length);
    if (node === undefined) this.#root.set(masked.length, node = new Map());
    // Keys: the first `depth − 2` tokens free of digits and masks (a header's masked fields skipped).
    for (let i = 0, k = 0; i < masked.length && k < this.#prefix; i++) {
      let key = masked[i];
      if (/\d|<\*>/.test(key)) continue;
      k++;
      let next = node.get(key) as Map<string, unknown> | undefined;
      if (next === undefined) {
        if (node.size >= MAX_CHILDREN && key !== WILD) key = WILD;
        next = node.get(key) as Map<string, unknown> | undefined;
        if (next === undefined) node.set(key, next = new Map());
      }
      node = next;
    }
    let leaf = node.get("") as Cluster[] | undefined;
    if (leaf === undefined) node.set("", leaf = []);
    // The most similar cluster of the leaf (ties: more literal tokens, then the older).
    let best: Cluster | null = null, bestSim = -1, bestLit = -1;
    for (const c of leaf) {
      let same = 0, lit = 0, n = 0;
      for (let i = 0; i < masked.length; i++) {
        const t = c.tokens[i];
        if (masked[i] === WILD && (t === WILD || t === null)) continue;
        n++;
        if (t === null) continue;
        lit++;
        if (t === masked[i]) same++;
      }
      const sim = n === 0 ? 1 : same / n;
      if (sim > bestSim || (sim === bestSim && lit > bestLit)) {
        best = c, bestSim = sim, bestLit = lit;
      }
    }
    if (best !== null && bestSim >= this.#st) {
      let changed = false;
      for (let i = 0; i < masked.length; i++) {
        const t = best.tokens[i];
        if (t !== null && t !== masked[i]) best.tokens[i] = null, changed = true;
      }
      for (let i = 0; i < seps.length; i++) {
        const s = best.seps[i];
        if (s !== null && s !== seps[i]) best.seps[i] = null, changed = true;
      }
      if (changed) best.id = "";
      best.count++;
      best.lastLine = lineNo;
      if (best.id === "") {
        best.id = templateId(render(best));
        this.#seen.set(best.id, best);
      }
      return best.id;
    }
    if (this.#clusters >= this.#max) {
      this.#other++;
      return null;
    }
    const c: Cluster = {
      tokens: masked,
      seps,
      count: 1,
      firstLine: lineNo,
      lastLine: lineNo,
      example: line,
      id: "",
    };
    c.id = templateId(render(c));
    this.#seen.set(c.id, c);
    leaf.push(c);
    this.#all.push(c);
    this.#clusters++;
    return c.id;
  }

  /**
   * The final id of the template an id returned by {@linkcode TemplateMiner.add} belongs to now (its
   * text may have gained `<*>` since): the id {@linkcode TemplateMiner.templates} gives it.
   *
   * @param id An id `add` returned.
   * @returns The template's id now, or null for an id this miner never returned.
   */
  finalId(id: string): string | null {
    const c = this.#seen.get(id);
    return c === undefined ? null : templateId(render(c));
  }

  /**
   * The templates, most frequent first (ties by first line). Clusters whose final texts are equal are
   * given as one template (counts summed, the earliest first line and example, the latest last line).
   *
   * @returns The templates; their counts sum to {@linkcode TemplateMiner.totalLines} −
   *   {@linkcode TemplateMiner.otherLines}.
   */
  templates(): Template[] {
    const byText = new Map<string, Template>();
    for (const c of this.#all) {
      const text = render(c);
      const t = byText.get(text);
      if (t === undefined) {
        byText.set(text, {
          id: templateId(text),
          template: text,
          count: c.count,
          firstLine: c.firstLine,
          lastLine: c.lastLine,
          example: c.example,
        });
      } else {
        t.count += c.count;
        if (c.firstLine < t.firstLine) t.firstLine = c.firstLine, t.example = c.example;
        if (c.lastLine > t.lastLine) t.lastLine = c.lastLine;
      }
    }
    return [...byText.values()].sort((a, b) => b.count - a.count || a.firstLine - b.firstLine);
  }
}

/** A cluster's text: separators and tokens in order, `<*>` for variable parts, runs of `<*>` folded. */
function render(c: Cluster): string {
  let out = "";
  for (let i = 0; i < c.tokens.length; i++) {
    out += c.seps[i] ?? WILD;
    out += c.tokens[i] ?? WILD;
  }
  out += c.seps[c.tokens.length] ?? WILD;
  while (out.includes("<*><*>")) out = out.replaceAll("<*><*>", WILD);
  return out;
}
