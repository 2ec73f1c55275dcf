import { describe, expect, it } from "vitest";
import { NotFoundError, RateLimitedError } from "@/server/services/errors";
import { toTrpcError, trpcResponseMeta } from "./errors";

describe("trpcResponseMeta", () => {
  it("sends no headers when no call was refused for its rate", () => {
    expect(trpcResponseMeta({ errors: [] })).toEqual({});
    expect(trpcResponseMeta({ errors: [toTrpcError(new NotFoundError("payment"))] })).toEqual({});
  });

  it("sends the refusal's Retry-After and RateLimit headers, the longest wait of a batch", () => {
    const soon = new RateLimitedError(1, { ratelimit: '"user";r=0;t=1' });
    const later = new RateLimitedError(7, { ratelimit: '"user";r=0;t=7' });
    const { headers } = trpcResponseMeta({ errors: [toTrpcError(soon), toTrpcError(later), toTrpcError(soon)] });
    expect(headers).toEqual({ "retry-after": "7", ratelimit: '"user";r=0;t=7' });
  });
});
