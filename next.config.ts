import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its WASM and extension bundles from its own package folder at run time;
  // bundling them breaks those relative paths.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"],
  poweredByHeader: false,
};

export default config;
