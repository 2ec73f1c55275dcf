import { describe, expect, it } from "vitest";
import { spreadsheetSafeCsv } from "./spreadsheet-csv";

async function csvOf(columns: string[], rows: Record<string, unknown>[]): Promise<string> {
  const csv = spreadsheetSafeCsv(columns);
  const chunks: string[] = [];
  csv.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  const ended = new Promise((resolve) => csv.on("end", resolve));
  rows.forEach((row) => csv.write(row));
  csv.end();
  await ended;
  return chunks.join("");
}

describe("spreadsheetSafeCsv", () => {
  it("writes cells a spreadsheet would run as formulas as text, and leaves the rest alone", async () => {
    const text = await csvOf(["id", "note"], [
      { id: "pay_1", note: "=HYPERLINK(\"http://evil\")" },
      { id: "pay_2", note: "+1" },
      { id: "pay_3", note: "-2" },
      { id: "pay_4", note: "@SUM(A1)" },
      { id: "pay_5", note: "a=b" },
    ]);
    expect(text.split("\n").slice(0, 6)).toEqual([
      "id,note",
      "pay_1,\"'=HYPERLINK(\"\"http://evil\"\")\"",
      "pay_2,'+1",
      "pay_3,'-2",
      "pay_4,'@SUM(A1)",
      "pay_5,a=b",
    ]);
  });
});
