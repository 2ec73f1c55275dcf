import { describe, expect, it } from "vitest";
import { createHeldBackEndpoints } from "./held-back-endpoints";

describe("when a worker claims again for an endpoint draining a backlog", () => {
  it("waits until a quarter of the endpoint's bound has freed since the last claim", () => {
    const endpoints = createHeldBackEndpoints(16);
    for (let i = 0; i < 16; i++) endpoints.started("a");
    expect([1, 2, 3].map(() => endpoints.ended("a", true))).toEqual([false, false, false]);
    expect(endpoints.ended("a", true)).toBe(true);
    endpoints.claiming();
    expect(endpoints.ended("a", true)).toBe(false);
  });

  it("claims at once when the endpoint has nothing left in flight here (another worker may hold the rest)", () => {
    const endpoints = createHeldBackEndpoints(16);
    endpoints.started("a");
    endpoints.started("a");
    expect(endpoints.ended("a", true)).toBe(false);
    expect(endpoints.ended("a", true)).toBe(true);
  });

  it("never claims for an attempt that held nothing back", () => {
    const endpoints = createHeldBackEndpoints(16);
    endpoints.started("a");
    expect(endpoints.ended("a", false)).toBe(false);
  });

  it("counts each endpoint on its own, and a half-open breaker's single probe claims on its end", () => {
    const endpoints = createHeldBackEndpoints(1);
    endpoints.started("a");
    endpoints.started("b");
    expect(endpoints.ended("a", true)).toBe(true);
    expect(endpoints.ended("b", false)).toBe(false);
  });
});
