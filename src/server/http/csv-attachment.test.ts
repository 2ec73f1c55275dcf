import { describe, expect, it } from "vitest";
import type { Runtime } from "@/server/runtime";
import { csvAttachment, keysetItems } from "./csv-attachment";

const pages = [
  { data: [{ id: "a", note: "=1+1" }], hasMore: true, nextCursor: "1" },
  { data: [{ id: "b", note: "plain" }], hasMore: true, nextCursor: "2" },
  { data: [{ id: "c", note: "last" }], hasMore: false, nextCursor: null },
];
const runtime = { log: { error: () => undefined } } as unknown as Runtime;

describe("a CSV attachment of a keyset-paged list", () => {
  it("holds every row of every page, once, formulas written as text", async () => {
    const rows = keysetItems(pages[0]!, async (cursor) => pages[Number(cursor)]!);
    const response = csvAttachment({ runtime, requestId: "req_1", columns: ["id", "note"], rows, filename: "payments-2026/11/27" });
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="payments-20261127.csv"');
    expect(await response.text()).toBe("id,note\na,'=1+1\nb,plain\nc,last\n");
  });

  it("ends the download broken, never looking complete, when a later page fails", async () => {
    const rows = keysetItems(pages[0]!, async (cursor) => {
      if (cursor === "2") throw new Error("the database went away");
      return pages[Number(cursor)]!;
    });
    const response = csvAttachment({ runtime, requestId: "req_2", columns: ["id", "note"], rows, filename: "payments" });
    await expect(response.text()).rejects.toThrow();
  });
});
