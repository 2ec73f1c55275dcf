import fc from "fast-check";

/**
 * Hostile values for the junk-input fuzzer: the strings, numbers and shapes that break parsers, databases
 * and string handling, mixed with plain random ones. Kept as data so a failure names what it sent.
 */

/** Strings that PostgreSQL, URL parsers, decimal parsers, date parsers or renderers choke on. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "a\udfffb",
  "\u202e",
  "\u200b",
  "\ufeff",
  "🙂",
  "e\u0301",
  "Ａ１",
  "٣٫٥",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "-1",
  "0",
  "1e309",
  "1e-400",
  "0x1F",
  "19.99",
  "-19.99",
  "19,99",
  "0.0000000000000000001",
  "123456789012345678901234567890.123456789012345678901",
  "9".repeat(400),
  "2026-02-30T00:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "0000-01-01T00:00:00Z",
  "-271821-04-20T00:00:00Z",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\"; DROP TABLE payments; --",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "../../../../etc/passwd",
  "%00",
  "%ff",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "http://127.0.0.1:1/",
  "https://169.254.169.254/latest/meta-data/",
  "https://user:pass@example.com/",
  "https://[::ffff:127.0.0.1]/",
  "https://example.com/" + "a".repeat(3000),
  "sk_live_" + "A".repeat(50),
  "whsec_" + "A".repeat(32),
  "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----",
  "__proto__",
  "constructor",
];

/** Long strings, up to past the 64 KiB body limit. */
export const hugeString = fc
  .tuple(fc.constantFrom(1024, 10_240, 60_000, 70_000), fc.constantFrom("a", "é", "🙂", "\u0000", "9", " "))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 4 }) },
  { weight: 1, arbitrary: hugeString },
);

export const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 0.1, 1e308, -1e308, 5e-324, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 2 ** 64, 1.5),
);

export const hostileKey = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "", " ", "$where", "a.b", "a[0]", "\u0000", "🙂"),
  fc.string({ maxLength: 12 }),
);

export const hostileScalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, small and hostile at the leaves. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    { weight: 4, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileKey, tie("value"), { maxKeys: 4 }) },
  ),
})).value;

/** Deeply nested JSON text (as raw text: JSON.stringify itself would overflow on the deepest). */
export const deepNestingText = fc
  .tuple(fc.constantFrom(100, 5_000, 30_000), fc.constantFrom("array", "object"))
  .map(([depth, kind]) => (kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)));

/** Path segments: ids of every kind, traversal, NUL, bad percent-encoding, unicode, 10 KB. */
export const NASTY_PATH_SEGMENTS = [
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "a%00b",
  "%",
  "%ZZ",
  "%C0%AE",
  "%ED%A0%80",
  "%FF%FE",
  encodeURIComponent("🙂"),
  encodeURIComponent("\u202e"),
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent("<script>"),
  "%20",
  "%0D%0A",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "0",
  "-1",
  "pay_",
  "mer_00000000000000000000000000",
  "a".repeat(10 * 1024),
  encodeURIComponent("é".repeat(2000)),
];

const ID_PREFIXES = ["mer", "pay", "evt", "whd", "key", "pk"];

/** A well-formed id of some kind (almost surely nobody's), or a hostile segment. */
export function pathSegment(knownIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_PATH_SEGMENTS) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ID_PREFIXES), fc.ulid()).map(([prefix, ulid]) => `${prefix}_${ulid}`) },
    { weight: 2, arbitrary: fc.constantFrom(...knownIds) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
  );
}

export const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 5000)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom("1", "20", "100", "101", "1000000", "abc", "1.5", "[]", "{}", "true") },
  { weight: 1, arbitrary: fc.constantFrom(1024, 10_240).map((n) => "x".repeat(n)) },
);

/** Raw query-string pieces the URL parser keeps as they are. */
export const RAW_QUERY_PIECES = ["%00", "%FF", "%", "%ZZ", "a=%E0%A4%A", "&&&", "=", "==x", "a[b]=c", "a[]=1&a[]=2", "__proto__[x]=1", "constructor[prototype][x]=1"];

/** JSON's content type with parameters and in odd casing: all of them JSON, to be read as such. */
export const JSON_WITH_PARAMETERS = [
  "application/json; charset=utf-8",
  "Application/Json;Charset=UTF-8",
  'application/json ; charset="utf-8"',
  "application/json;charset=utf-8;q=1",
];

/** Valid JSON that is not an object: refused as a body on every route that takes one. */
export const NON_OBJECT_BODIES = ["[]", '"x"', "null", "1", "true", "[{}]", "0", "false", '""'];

/** Content types other than JSON, and odd spellings of it. */
export const CONTENT_TYPES = [
  undefined,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  ...JSON_WITH_PARAMETERS,
];

/** Bodies that are not JSON, or barely: raw bytes and text. */
export const RAW_BODIES: (string | Uint8Array)[] = [
  new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
  new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]),
  new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  "{",
  "null",
  "\"string\"",
  "[{}]",
  "{\"a\": NaN}",
  "{\"a\": 1e999999}",
  "{\"__proto__\": {\"admin\": true}}",
  "{\"a\": \"\\ud800\"}",
  "{\"a\": \"\\u0000\"}",
  " ",
];

/** Timestamps and dates that parse as ISO 8601 yet sit at or past what Date and PostgreSQL can hold. */
export const NASTY_DATES = [
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "1970-01-01T00:00:00Z",
  "2026-02-29T00:00:00Z",
  "2026-11-22T24:00:00Z",
  "2026-11-22T12:00:60Z",
  "2026-11-22T12:00:00+14:00",
  "2026-11-22T12:00:00-23:59",
  "2026-11-22T12:00:00.123456789Z",
  "2026-11-22",
  "0000-01-01",
  "9999-12-31",
  "2026-02-29",
  "1900-01-01",
];

/** Decimal-looking strings: exponents, signs, separators, other digits, huge scales. */
export const NASTY_DECIMALS = [
  "0",
  "-0",
  "-1",
  "+1",
  ".5",
  "5.",
  "00012",
  "1e3",
  "1E-3",
  "0x10",
  "1,000.00",
  "1 000",
  "１２",
  "٣",
  "0.0000000000000000001",
  "1." + "0".repeat(30),
  "9".repeat(40),
  "99999999999999999999.999999999999999999",
];

/**
 * A hostile value shaped like `sample`: a date for a date, a decimal for a decimal, a URL for a URL. Such
 * values pass the type check and reach the code behind it, where generic junk is refused at the door.
 */
export function lookalike(sample: unknown): fc.Arbitrary<unknown> {
  if (typeof sample === "string" && /^\d{4}-\d{2}-\d{2}/.test(sample)) return fc.constantFrom(...NASTY_DATES);
  if (typeof sample === "string" && /^-?\d+(\.\d+)?$/.test(sample)) return fc.constantFrom(...NASTY_DECIMALS);
  if (typeof sample === "string" && /^https?:/.test(sample)) {
    return fc.constantFrom(...NASTY_STRINGS.filter((s) => /^[a-z]+:/.test(s)), "https://localhost/", "https://10.0.0.1/", "https://[::1]/", "https://example.com:0/", "https://xn--80ak6aa92e.com/");
  }
  if (typeof sample === "number") return hostileNumber;
  return hostileJson;
}
