import { describe, expect, it } from "vitest";
import { binaryFileKind, formatFileSize } from "./settlement-file";

const firstLine = (bytes: number[]) => Buffer.from(bytes).toString("utf8").split("\n")[0]!.replace(/\r$/, "");

describe("binaryFileKind", () => {
  it("names the files people choose by mistake from their first line", () => {
    expect(binaryFileKind(firstLine([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("a PNG image");
    expect(binaryFileKind("%PDF-1.7")).toBe("a PDF document");
    expect(binaryFileKind("PK\u0003\u0004\u0014\u0000")).toBe("a ZIP archive or an Excel workbook (.xlsx)");
    expect(binaryFileKind(firstLine([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]))).toBe("a JPEG image or another binary file");
    expect(binaryFileKind("e\u0000x\u0000t\u0000")).toBe("a binary file (or text not saved as UTF-8)");
  });

  it("takes CSV text for text, a header saved as Latin-1 included", () => {
    expect(binaryFileKind("externalId,amount,currency")).toBeNull();
    expect(binaryFileKind(firstLine([...Buffer.from("externalId,amount,Geb"), 0xfc, 0x68, 0x72]))).toBeNull();
  });
});

describe("formatFileSize", () => {
  it("says sizes the way the limit is written", () => {
    expect(formatFileSize(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatFileSize(10.3 * 1024 * 1024)).toBe("10.3 MB");
    expect(formatFileSize(2048)).toBe("2 KB");
    expect(formatFileSize(12)).toBe("12 bytes");
  });
});
