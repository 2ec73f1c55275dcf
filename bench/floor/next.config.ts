import type { NextConfig } from "next";

// The benchmark floor app (bench/floor/handlers.ts): the same Next.js as the real app, the same options that
// touch a request's path (no x-powered-by), and nothing else.
const nextConfig: NextConfig = {
  poweredByHeader: false,
};

export default nextConfig;
