import { ID_PREFIXES } from "../../src/lib/ids";
import type { AnyRoute } from "../../src/server/http/route";
import { queryParameters, type FuzzContext, type FuzzRequest } from "./fuzz-requests";
import {
  CONTENT_TYPES,
  JSON_WITH_PARAMETERS,
  NASTY_DATES,
  NASTY_DECIMALS,
  NASTY_PATH_SEGMENTS,
  NON_OBJECT_BODIES,
  RAW_BODIES,
  RAW_QUERY_PIECES,
} from "./fuzz-values";

// One of each JSON type, plus the strings the database cannot store: per field, so each field's own
// validation (not the pipeline's) meets them. Size and depth are tried once per route, below.
const WRONG_VALUES: unknown[] = [null, -1, true, "", "\u0000", "a\ud800", [], { nested: { object: true } }];

const BAD_QUERY_VALUES = ["", "abc", "-1", "0", "101", "1e309", "1.5", "\u0000", "\ud800", "🙂", "x".repeat(10_240)];

/**
 * The fixed part of the fuzzer: every hostile case in the lists, once, on top of a valid request, so each
 * route meets each of them whatever the random part draws.
 */
export function corpusFor(route: AnyRoute, ctx: FuzzContext): FuzzRequest[] {
  const example = route.bodyExample ?? (route.body ? {} : undefined);
  const base: FuzzRequest = {
    method: route.method,
    path: route.path.replace(/\{\w+\}/g, ctx.knownIds[0]!),
    query: "",
    headers: {
      authorization: `Bearer ${ctx.apiKey}`,
      "content-type": route.streamedBody?.mediaType ?? "application/json",
      "x-forwarded-for": "192.0.2.1",
    },
    ...(example !== undefined ? { body: JSON.stringify(example) } : {}),
    ...(route.streamedBody ? { body: route.streamedBody.example } : {}),
  };
  const cases: FuzzRequest[] = [base];
  const withBody = (body: string | Uint8Array, contentType?: string) => {
    const headers = { ...base.headers };
    if (contentType === undefined) delete (headers as Record<string, string>)["content-type"];
    else headers["content-type"] = contentType;
    return { ...base, headers, body };
  };

  const firstParam = /\{\w+\}/.exec(route.path)?.[0];
  if (firstParam) {
    for (const segment of NASTY_PATH_SEGMENTS) cases.push({ ...base, path: route.path.replace(firstParam, segment).replace(/\{\w+\}/g, ctx.knownIds[0]!) });
  }
  // Every id parameter meets a well-formed id of every kind (another kind's id must be a plain 404 or 400).
  for (const param of route.path.match(/\{\w+\}/g) ?? []) {
    for (const prefix of Object.values(ID_PREFIXES)) {
      cases.push({ ...base, path: route.path.replace(param, `${prefix}_${UNKNOWN_ULID}`).replace(/\{\w+\}/g, ctx.knownIds[0]!) });
    }
  }

  for (const piece of RAW_QUERY_PIECES) cases.push({ ...base, query: piece });
  cases.push({ ...base, query: "unknown=1&unknown=2" });
  for (const [key, schema] of Object.entries(queryParameters(route))) {
    const shaped = schema.format === "date-time" || schema.format === "date" ? NASTY_DATES : [];
    for (const value of [...BAD_QUERY_VALUES, ...shaped]) cases.push({ ...base, query: new URLSearchParams([[key, value]]).toString() });
    cases.push({ ...base, query: `${key}=1&${key}=2&${key}=3` });
  }

  if (route.auth === "api_key") {
    for (const authorization of [undefined, "Bearer", "Basic eDp5", `Bearer ${ctx.apiKey}x`, "Bearer " + "A".repeat(10_000)]) {
      const headers = { ...base.headers } as Record<string, string>;
      if (authorization === undefined) delete headers.authorization;
      else headers.authorization = authorization;
      cases.push({ ...base, headers });
    }
  }

  if (route.body) {
    const body = JSON.stringify(example);
    for (const contentType of CONTENT_TYPES) cases.push(withBody(body, contentType));
    for (const raw of RAW_BODIES) cases.push(withBody(raw, "application/json"));
    for (const raw of NON_OBJECT_BODIES) cases.push({ ...withBody(raw, "application/json"), expected: { code: "validation_failed", field: "body" } });
    for (const contentType of JSON_WITH_PARAMETERS) cases.push({ ...withBody(body, contentType), expected: { notCode: "unsupported_media_type" } });
    // Framing headers that disagree: the HTTP server settles framing (Node refuses both at once on the wire);
    // whatever reaches the pipeline must still be answered without a 5xx.
    cases.push({ ...withBody(body, "application/json"), headers: { ...base.headers, "transfer-encoding": "chunked", "content-length": "5" } });
    cases.push(withBody(JSON.stringify({ filler: "x".repeat(70_000) }), "application/json"));
    cases.push({ ...withBody(JSON.stringify({ filler: "x".repeat(70_000) }), "application/json"), headers: { ...base.headers, "content-length": "100" } });
    cases.push({ ...withBody(body, "application/json"), headers: { ...base.headers, "content-length": "99999999" } });
    cases.push(withBody("[".repeat(30_000) + "]".repeat(30_000), "application/json"));
    if (example && typeof example === "object" && !Array.isArray(example)) {
      for (const field of Object.keys(example)) {
        const { [field]: _removed, ...without } = example as Record<string, unknown>;
        cases.push(withBody(JSON.stringify(without), "application/json"));
        const sample = (example as Record<string, unknown>)[field];
        const shaped = typeof sample !== "string" ? [] : /^\d{4}-\d{2}-\d{2}/.test(sample) ? NASTY_DATES : /^-?\d+(\.\d+)?$/.test(sample) ? NASTY_DECIMALS : [];
        for (const wrong of [...WRONG_VALUES, ...shaped]) cases.push(withBody(JSON.stringify({ ...example, [field]: wrong }), "application/json"));
      }
      const [first] = Object.keys(example);
      if (first) {
        const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
        cases.push(withBody(JSON.stringify({ ...example, [first]: "__deep__" }).replace('"__deep__"', deep), "application/json"));
      }
      // A key given twice (JSON.parse would keep the last): refused, naming it, whichever key and at any depth.
      for (const path of objectPaths(example)) {
        const text = withDuplicateKey(example, path);
        if (text) cases.push({ ...withBody(text.body, "application/json"), expected: { code: "validation_failed", field: text.field } });
      }
      cases.push(withBody(JSON.stringify({ ...example, unexpectedField: "surprise" }), "application/json"));
    }
  }
  if (route.streamedBody) cases.push(...streamedBodyCases(route.streamedBody, withBody));
  return cases;
}

/** A streamed CSV body: other media types, junk bytes, the size limit, and each cell of a line made hostile. */
function streamedBodyCases(
  declared: NonNullable<AnyRoute["streamedBody"]>,
  withBody: (body: string | Uint8Array, contentType?: string) => FuzzRequest,
): FuzzRequest[] {
  const { mediaType, example, maxBytes } = declared;
  const cases: FuzzRequest[] = [];
  for (const contentType of CONTENT_TYPES) cases.push(withBody(example, contentType));
  for (const raw of RAW_BODIES) cases.push(withBody(raw, mediaType));
  const tooLong = withBody(example, mediaType);
  cases.push({ ...tooLong, headers: { ...tooLong.headers, "content-length": String(maxBytes + 1) } });
  const [header = "", line = ""] = example.split("\n");
  const cells = line.split(",");
  const hostile = ["", "\u0000", "\ud800", "\"", "a\"b", "=cmd()", "x".repeat(20_000), ...NASTY_DECIMALS, ...NASTY_DATES];
  for (const [i] of cells.entries()) {
    for (const value of hostile) cases.push(withBody(`${header}\n${cells.map((cell, j) => (j === i ? value : cell)).join(",")}\n`, mediaType));
  }
  for (const body of ["", header, "\n\n\n", `${header}\n${line},extra,cells`, `${header},${header}\n${line}`, `"${example}`, "\ufeff" + example, example.replaceAll("\n", "\r\n")]) {
    cases.push(withBody(body, mediaType));
  }
  return cases;
}

const UNKNOWN_ULID = "01jd0000000000000000000000";

/** Paths to every object in a JSON value, the root included. */
function objectPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, [...prefix, key]))];
}

/** The example's JSON with the first key of the object at `path` given a second time (same value). */
function withDuplicateKey(example: unknown, path: string[]): { body: string; field: string } | null {
  const target = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], example) as Record<string, unknown>;
  const [key] = Object.keys(target);
  if (key === undefined) return null;
  const marker = "__duplicate_here__";
  const marked = structuredClone(example) as Record<string, unknown>;
  const parent = path.reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, marked);
  parent[marker] = true;
  const body = JSON.stringify(marked).replace(`"${marker}":true`, `${JSON.stringify(key)}:${JSON.stringify(target[key])}`);
  return { body, field: ["body", ...path, key].join(".") };
}
