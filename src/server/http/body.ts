import { ServiceError } from "@/server/services/errors";

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
 * streaming, so a lying Content-Length does not help) and malformed JSON or invalid UTF-8 (400).
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
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError("malformed_json", "The body is not valid JSON.");
  }
}

function tooLarge() {
  return new ServiceError("payload_too_large", `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes.`);
}
