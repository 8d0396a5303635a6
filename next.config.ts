import type { NextConfig } from "next";

// On every response. Pages also get a Content-Security-Policy with a per-request nonce, set in
// proxy.ts; API responses are data, never a document to render, run or frame.
const EVERY_RESPONSE = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  },
  // For browsers that predate CSP's frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];
const API_RESPONSE = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];

const config: NextConfig = {
  // PGlite loads its WASM and extension bundles from its own package folder at run time;
  // bundling them breaks those relative paths.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tests included) as its own step; checking again
  // inside every production build would only repeat it.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      { source: "/:path*", headers: EVERY_RESPONSE },
      { source: "/api/:path*", headers: API_RESPONSE },
    ];
  },
};

export default config;
