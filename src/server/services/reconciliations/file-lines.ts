/** The longest line of a settlement file, without its line break (docs/reconciliation.md, "The file"). */
export const MAX_LINE_BYTES = 16 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** A physical line of the file (1-based number), or the mark of one longer than MAX_LINE_BYTES (its bytes dropped). */
export type FramedLine = { lineNumber: number; text: string; tooLong?: false } | { lineNumber: number; tooLong: true };

/*
 * Cuts a byte stream into its lines (LF or CRLF), as it streams: a settlement line is one physical line. Framing
 * comes before any CSV parsing so that nothing one line holds — a stray quote, a line of megabytes — can reach
 * into the next: the parser sees one line at a time, and every line comes out exactly once, in order, numbered.
 * A line over MAX_LINE_BYTES is not kept (at most that much of a line is ever held): it comes out as `tooLong`,
 * and reading goes on at the next line. A UTF-8 byte order mark before the first line is dropped. Yields the
 * lines a chunk completed, per chunk; a stream that fails (the body limit, a client gone) throws here.
 */
export async function* framedLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<FramedLine[]> {
  const reader = stream.getReader();
  let lineNumber = 0;
  let pieces: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  let done = false;

  const finishLine = (): FramedLine => {
    lineNumber++;
    let bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    if (!tooLong && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    const line: FramedLine =
      tooLong || bytes.length > MAX_LINE_BYTES ? { lineNumber, tooLong: true } : { lineNumber, text: decode(bytes, lineNumber === 1) };
    pieces = [];
    size = 0;
    tooLong = false;
    return line;
  };

  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const chunk = next.value;
      const lines: FramedLine[] = [];
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(LF, start);
        const end = newline === -1 ? chunk.length : newline;
        if (!tooLong && end > start) {
          // One byte of room for the CR of a CRLF, which is not part of the line.
          if (size + (end - start) > MAX_LINE_BYTES + 1) {
            tooLong = true;
            pieces = [];
          } else {
            pieces.push(chunk.subarray(start, end));
            size += end - start;
          }
        }
        if (newline === -1) break;
        lines.push(finishLine());
        start = newline + 1;
      }
      if (lines.length > 0) yield lines;
    }
    done = true;
    // The last line, when the file does not end with a line break.
    if (size > 0 || tooLong) yield [finishLine()];
  } finally {
    // Left early (a refused header, too many lines): the rest of the upload is not wanted.
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

const BOM = "\uFEFF";

function decode(bytes: Uint8Array, first: boolean): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return first && text.startsWith(BOM) ? text.slice(1) : text;
}
