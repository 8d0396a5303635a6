import { networkInterfaces } from "node:os";
import type { NextConfig } from "next";

// `next dev` serves its scripts and live reload only to the origin it was opened at unless told
// otherwise: opened at 127.0.0.1 or at the network address it prints, the page never became
// interactive. This machine's own addresses are the dev server's, whichever one a person uses.
const OWN_ADDRESSES = [
  "localhost",
  "127.0.0.1",
  ...Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && !i.internal && i.family === "IPv4" ? [i.address] : [])),
];

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
  // Loaded by Node.js from node_modules, once per process, not bundled. PGlite must be: it loads
  // its WASM and extension bundles from its own package folder, and bundling breaks those paths.
  // The rest are large server libraries: each route's server bundle would carry its own copy,
  // and a server that has served twenty routes held twenty copies of each (≈ 280 MB of source
  // text on its heap, measured in a heap snapshot of bench:soak).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@ai-sdk/anthropic",
    "@ai-sdk/openai",
    "@ai-sdk/openai-compatible",
    "@langchain/core",
    "@langchain/langgraph",
    "@langchain/langgraph-checkpoint",
    "@modelcontextprotocol/sdk",
    "@supabase/ssr",
    "@supabase/supabase-js",
    "ai",
    "ajv",
    "better-auth",
    "canonicalize",
    "drizzle-orm",
    "html-to-text",
    "mathjs",
    // Reads its standard fonts' metrics from its own package folder at run time, as PGlite does.
    "pdfkit",
    "postgres",
    "re2js",
    "recheck",
    "unpdf",
    "ws",
    "zod",
  ],
  poweredByHeader: false,
  allowedDevOrigins: OWN_ADDRESSES,
  // forbidden(): a page a role may not open answers 403 with its explanation inside the app shell.
  experimental: { authInterrupts: true },
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
