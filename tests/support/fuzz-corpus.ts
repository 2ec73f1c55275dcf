import type { AnyRoute } from "../../src/server/http/route";
import { queryParameters, type FuzzContext, type FuzzRequest } from "./fuzz-requests";
import { CONTENT_TYPES, NASTY_DATES, NASTY_DECIMALS, NASTY_PATH_SEGMENTS, RAW_BODIES, RAW_QUERY_PIECES } from "./fuzz-values";

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

  for (const piece of RAW_QUERY_PIECES) cases.push({ ...base, query: piece });
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
      // The last duplicate key wins in JSON.parse: this replaces a field with 20,000 nested arrays.
      if (first) cases.push(withBody(JSON.stringify(example).replace(/\}$/, `,"${first}":${"[".repeat(20_000)}${"]".repeat(20_000)}}`), "application/json"));
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
