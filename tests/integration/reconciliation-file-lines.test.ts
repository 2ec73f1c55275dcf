import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReconciliation } from "../../src/server/services/reconciliations/create";
import { MAX_LINE_BYTES } from "../../src/server/services/reconciliations/file-lines";
import { getReconciliation } from "../../src/server/services/reconciliations/get";
import type { ServiceContext } from "../../src/server/services/context";
import { testClient, type TestClient } from "../support/client";
import { merchantUser, serviceContext } from "../support/context";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/*
 * Nothing reported complete may be partial (docs/reconciliation.md, "The file"): every data line of a settlement
 * file — each non-blank line after the header — is in the report exactly once, read or malformed with its line
 * number, whatever it holds (a stray quote, a line over 16 KiB) and wherever the upload's chunks happen to end.
 */

let runtime: TestRuntime;
let api: TestClient;
let ctx: ServiceContext;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  ctx = serviceContext(runtime, merchantUser((await registerTestMerchant(api)).merchant.id));
});
afterAll(() => runtime.close());

/** The file as a stream cut at `cuts` (byte offsets), as an upload's chunks would arrive. */
function chunked(file: string, cuts: readonly number[] = []): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(file);
  const ends = [...new Set(cuts.map((cut) => Math.min(cut, bytes.length)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const end of [...ends, bytes.length]) {
    if (end > start) chunks.push(bytes.subarray(start, end));
    start = Math.max(start, end);
  }
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** Every line of the report that came from the file (not `missingInFile`), with its line number and status. */
async function fileLinesOf(id: string) {
  const lines: { lineNumber: number | null; status: string; reason: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const page = await getReconciliation({ ctx, input: { id, ...(cursor ? { cursor } : {}) } });
    lines.push(...page.lines);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return lines.filter((line) => line.status !== "missingInFile");
}

describe("every data line of a settlement file is in the report", () => {
  it('keeps a malformed line of the first chunk (the header is read in it too): ab"c → malformed at line 2', async () => {
    const report = await createReconciliation({ ctx, input: { file: chunked('externalId,amount,currency\nab"c,1.00,EUR\next-1,4.00,EUR') } });
    expect(report.fileLines).toBe(2);
    expect(report.summary).toMatchObject({ malformed: 1, missingInLedger: 1 });
    expect(report.lines.map((line) => [line.lineNumber, line.status])).toEqual([
      [2, "malformed"],
      [3, "missingInLedger"],
    ]);
    expect(report.lines[0]!.reason).toMatch(/not valid CSV/);
  });

  it("reads on after a line longer than 16 KiB, which is one malformed line: 3,000 lines, a 20 KB line, 3,000 more", async () => {
    const before = Array.from({ length: 3_000 }, (_, i) => `before-${i},1.00,EUR`);
    const after = Array.from({ length: 3_000 }, (_, i) => `after-${i},1.00,EUR`);
    const file = ["externalId,amount,currency", ...before, `${"x".repeat(20_000)},1.00,EUR`, ...after].join("\n") + "\n";
    const report = await createReconciliation({ ctx, input: { file: chunked(file, [1_000, 70_000, 80_000, 100_000]) } });
    expect(report.fileLines).toBe(6_001);
    expect(report.summary).toMatchObject({ malformed: 1, missingInLedger: 6_000 });
    const malformed = (await fileLinesOf(report.id)).filter((line) => line.status === "malformed");
    expect(malformed).toEqual([expect.objectContaining({ lineNumber: 3_002, reason: `longer than ${MAX_LINE_BYTES / 1024} KiB` })]);
  });

  it("ends an unclosed quote with its line: the lines after it are read", async () => {
    const report = await createReconciliation({ ctx, input: { file: chunked('externalId,amount,currency\n"open,1.00,EUR\next-2,2.00,EUR\r\next-3,"3.00",EUR\n') } });
    expect(report.lines.map((line) => [line.lineNumber, line.status])).toEqual([
      [2, "malformed"],
      [3, "missingInLedger"],
      [4, "missingInLedger"],
    ]);
  });

  it("property: lines + malformed == the data lines of the file, each once, by line number, wherever the chunks end", async () => {
    const id = fc.stringMatching(/^[a-z0-9é-]{1,12}$/);
    const amount = fc.stringMatching(/^\d{1,4}\.\d{2}$/);
    const good = fc.oneof(
      fc.tuple(id, amount).map(([key, value]) => `${key},${value},EUR`),
      fc.tuple(id, amount).map(([key, value]) => `"${key}","${value}","EUR"`),
      fc.tuple(id, amount).map(([key, value]) => `"${key},with ""comma"""  , ${value} ,eur`),
    );
    const bad = fc.oneof(
      fc.tuple(id, amount).map(([key, value]) => `${key}"x,${value},EUR`), // a quote inside an unquoted field
      fc.tuple(id, amount).map(([key, value]) => `"${key},${value},EUR`), // a quote never closed
      fc.tuple(id, amount).map(([key, value]) => `"${key}"x,${value},EUR`), // text after a closing quote
      fc.tuple(id, amount).map(([key, value]) => `"${key},${value},"EUR`), // quotes that pair up across fields
      amount.map((value) => `,${value},EUR`), // no id
      id.map((key) => `${key},1.0.0,EUR`), // not a decimal
      fc.integer({ min: MAX_LINE_BYTES + 1 - 10, max: MAX_LINE_BYTES + 64 }).map((length) => `${"y".repeat(length)},1.00,EUR`), // too long
    );
    const blank = fc.constantFrom("", "   ", "\t");
    const line = fc.oneof({ arbitrary: good.map((text) => ({ kind: "good" as const, text })), weight: 4 }, { arbitrary: bad.map((text) => ({ kind: "bad" as const, text })), weight: 2 }, { arbitrary: blank.map((text) => ({ kind: "blank" as const, text })), weight: 1 });
    const file = fc.record({
      bom: fc.boolean(),
      blankBefore: fc.nat(2),
      header: fc.constantFrom("externalId,amount,currency", '"externalId","amount","currency"', "externalId , amount , currency,memo"),
      lines: fc.array(line, { maxLength: 25 }),
      crlf: fc.boolean(),
      finalBreak: fc.boolean(),
      cuts: fc.array(fc.nat(40_000), { maxLength: 6 }),
    });

    await fc.assert(
      fc.asyncProperty(file, async ({ bom, blankBefore, header, lines, crlf, finalBreak, cuts }) => {
        const all = [...Array.from({ length: blankBefore }, () => ""), header, ...lines.map((entry) => entry.text)];
        const text = (bom ? "\uFEFF" : "") + all.join(crlf ? "\r\n" : "\n") + (finalBreak ? "\n" : "");
        const firstData = blankBefore + 2;
        const expected = lines.map((entry, i) => ({ ...entry, lineNumber: firstData + i })).filter((entry) => entry.kind !== "blank");

        const report = await createReconciliation({ ctx, input: { file: chunked(text, cuts) } });
        const reported = await fileLinesOf(report.id);
        const malformed = reported.filter((entry) => entry.status === "malformed");
        expect(report.fileLines).toBe(expected.length);
        expect(reported.length - malformed.length + report.summary.malformed).toBe(expected.length);
        expect(reported.map((entry) => entry.lineNumber)).toEqual(expected.map((entry) => entry.lineNumber));
        expect(malformed.map((entry) => entry.lineNumber)).toEqual(expected.filter((entry) => entry.kind === "bad").map((entry) => entry.lineNumber));
      }),
      { numRuns: 50 },
    );
  });
});
