import { ServiceError, ValidationError } from "@/server/services/errors";
import { firstDuplicateKey } from "./duplicate-keys";

export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * The client closed the connection before its body arrived (the body stream errored: `aborted`, ECONNRESET).
 * Nobody waits for an answer: the pipeline logs it at info and records 499, never a 500 and an error line.
 */
export class ClientClosedRequestError extends Error {
  constructor() {
    super("The client closed the request before its body arrived");
    this.name = "ClientClosedRequestError";
  }
}

/**
 * Reads a JSON request body: refuses a non-JSON content type (415), more than 64 KiB (413, counted while
 * streaming, so a lying Content-Length does not help), malformed JSON or invalid UTF-8 (400), and — as
 * `validation_failed` naming the field — a body that is not a JSON object (`null` must not read as "no
 * changes") or that gives one key twice (JSON.parse keeps the last; which did the client mean?).
 * An empty body reads as `undefined`.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declaredLength = Number(request.headers.get("content-length") ?? "NaN");
  if (declaredLength > MAX_JSON_BODY_BYTES) throw tooLarge();
  if (!request.body) return undefined;

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new ClientClosedRequestError();
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) {
    throw new ServiceError("unsupported_media_type", "Send the body as application/json.");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ServiceError("malformed_json", "The body is not valid UTF-8.");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError("malformed_json", "The body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError([{ path: "body", message: "must be a JSON object" }], "The body must be a JSON object.");
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    const path = ["body", ...duplicate].join(".");
    throw new ValidationError([{ path, message: "is given more than once" }], `The key ${path} is given more than once.`);
  }
  return body;
}

function tooLarge() {
  return new ServiceError("payload_too_large", `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes.`);
}
