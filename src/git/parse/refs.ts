import { ParseError, quote } from "./errors.js";

/**
 * `git for-each-ref --format` string: five NUL-separated fields, one record per line.
 * Safe because ref names, oids and `:track` text can hold neither NUL nor LF, and
 * for-each-ref (plumbing) never translates the `:track` words.
 */
export const REF_FORMAT: string = "%(refname)%00%(objectname)%00%(upstream)%00%(upstream:track)%00%(symref)";

export interface RefTrack {
  ahead: number;
  behind: number;
  gone: boolean;
}

export interface RefRecord {
  ref: string;
  oid: string;
  upstream: string | null;
  track: RefTrack | null; // null when there is no upstream
  symref: string | null;
}

const FORMAT = "for-each-ref --format=REF_FORMAT";
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const TRACK = /^\[(?:ahead (\d+)|behind (\d+)|ahead (\d+), behind (\d+))\]$/;

/** Format: output of `git for-each-ref --format=REF_FORMAT` — LF-terminated records of exactly 5 NUL-separated fields: refname, oid, upstream, upstream:track, symref. */
export function parseRefs(stdout: string): RefRecord[] {
  if (stdout === "") return [];
  if (!stdout.endsWith("\n")) throw new ParseError(FORMAT, "output must end with a line feed");
  return stdout.slice(0, -1).split("\n").map(parseRecord);
}

function parseRecord(line: string): RefRecord {
  const fields = line.split("\0");
  const [ref = "", oid = "", upstream = "", track = "", symref = ""] = fields;
  if (fields.length !== 5) throw new ParseError(FORMAT, `expected 5 fields, got ${fields.length} in ${quote(line)}`);
  if (ref === "") throw new ParseError(FORMAT, `empty refname in ${quote(line)}`);
  if (!OID.test(oid)) throw new ParseError(FORMAT, `bad object name ${quote(oid)} for ${quote(ref)}`);
  if (upstream === "" && track !== "") {
    throw new ParseError(FORMAT, `tracking info ${quote(track)} without upstream for ${quote(ref)}`);
  }
  return {
    ref,
    oid,
    upstream: upstream || null,
    track: upstream === "" ? null : parseTrack(track, ref),
    symref: symref || null,
  };
}

// "" (in sync), "[gone]", "[ahead N]", "[behind M]" or "[ahead N, behind M]".
function parseTrack(track: string, ref: string): RefTrack {
  if (track === "") return { ahead: 0, behind: 0, gone: false };
  if (track === "[gone]") return { ahead: 0, behind: 0, gone: true };
  const m = TRACK.exec(track);
  if (!m) throw new ParseError(FORMAT, `unrecognised upstream:track ${quote(track)} for ${quote(ref)}`);
  return { ahead: Number(m[1] ?? m[3] ?? 0), behind: Number(m[2] ?? m[4] ?? 0), gone: false };
}

/**
 * `git for-each-ref --format` string for the commit each ref names: refname, object type, object
 * name, and for an annotated tag the type and name of the object it tags (`*`: one level of
 * peeling, as for-each-ref gives it), then the symref target; NUL-separated, one record per line.
 */
export const PEELED_REF_FORMAT: string = "%(refname)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)%00%(symref)";

/** One ref of PEELED_REF_FORMAT. `commit`: the commit it names (a tag peeled once), null when it
 * names something else; undefined for a tag of a tag (peeling further is git's to do). */
export interface PeeledRef {
  ref: string;
  commit: string | null | undefined;
  symref: string | null;
}

const PEELED = "for-each-ref --format=PEELED_REF_FORMAT";
const TYPES = new Set(["commit", "tag", "tree", "blob"]);

/** Format: output of `git for-each-ref --format=PEELED_REF_FORMAT` — LF-terminated records of exactly 6 NUL-separated fields. */
export function parsePeeledRefs(stdout: string): PeeledRef[] {
  if (stdout === "") return [];
  if (!stdout.endsWith("\n")) throw new ParseError(PEELED, "output must end with a line feed");
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const fields = line.split("\0");
      const [ref = "", type = "", oid = "", tagged = "", taggedOid = "", symref = ""] = fields;
      if (fields.length !== 6) throw new ParseError(PEELED, `expected 6 fields, got ${fields.length} in ${quote(line)}`);
      if (ref === "") throw new ParseError(PEELED, `empty refname in ${quote(line)}`);
      if (!TYPES.has(type) || !OID.test(oid)) throw new ParseError(PEELED, `bad object ${quote(type)} ${quote(oid)} for ${quote(ref)}`);
      if (type === "tag" && (!TYPES.has(tagged) || !OID.test(taggedOid))) throw new ParseError(PEELED, `bad tagged object for ${quote(ref)}`);
      const commit = type === "commit" ? oid : type !== "tag" ? null : tagged === "commit" ? taggedOid : tagged === "tag" ? undefined : null;
      return { ref, commit, symref: symref || null };
    });
}
