import { describe, expect, it } from "vitest";
import { linksTo, traceParentOf, withSpan } from "./span";

describe("tracing helpers without a tracer", () => {
  it("run the function with no span and pass its result and errors through", async () => {
    await expect(withSpan("x", {}, async (span) => (span === null ? "no span" : "span"))).resolves.toBe("no span");
    await expect(withSpan("x", {}, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(traceParentOf(null)).toBeNull();
  });
});

describe("linksTo", () => {
  it("links to the span a W3C traceparent names", () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const spanId = "b7ad6b7169203331";
    expect(linksTo(`00-${traceId}-${spanId}-01`)).toEqual([{ context: { traceId, spanId, traceFlags: 1, isRemote: true } }]);
  });

  it.each([null, undefined, "", "garbage", "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b71692033-01"])(
    "links to nothing for %j",
    (value) => {
      expect(linksTo(value)).toEqual([]);
    },
  );
});
