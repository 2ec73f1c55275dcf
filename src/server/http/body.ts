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

/** What a route that takes a streamed, non-JSON body declares (`streamedBody` on its route). */
export interface StreamedBodyDeclaration {
  /** The one media type accepted (parameters such as `; charset=utf-8` aside). */
  mediaType: "text/csv";
  maxBytes: number;
}

/**
 * A non-JSON body handed over as it streams in, without reading it here: a declared Content-Length over
 * `maxBytes` is refused (413) before anything is read, another media type is 415, and a body that passes
 * `maxBytes` while streaming (chunked, or a lying Content-Length) errors the stream with the same 413 —
 * the reader (the route's service) must undo what it wrote. A client that goes away errors it with
 * ClientClosedRequestError. A request without a body gives an empty stream.
 */
export function streamedBody(request: Request, declared: StreamedBodyDeclaration): ReadableStream<Uint8Array> {
  const declaredLength = Number(request.headers.get("content-length") ?? "NaN");
  if (declaredLength > declared.maxBytes) throw streamTooLarge(declared);
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== declared.mediaType) {
    throw new ServiceError("unsupported_media_type", `Send the body as ${declared.mediaType}.`);
  }
  if (!request.body) return new ReadableStream({ start: (controller) => controller.close() });
  const reader = request.body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        controller.error(new ClientClosedRequestError());
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      size += chunk.value.byteLength;
      if (size > declared.maxBytes) {
        await reader.cancel().catch(() => undefined);
        controller.error(streamTooLarge(declared));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function streamTooLarge(declared: StreamedBodyDeclaration) {
  return new ServiceError("payload_too_large", `${declared.mediaType} bodies are limited to ${declared.maxBytes} bytes.`);
}
