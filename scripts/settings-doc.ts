// Writes the table of VIGIL_* settings in docs/configuration.md from the schema in
// lib/config/settings.ts (`npm run docs:settings`); with --check it only says whether the
// document is current, and exits 1 when it is not.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withSettingsTable } from "@/lib/config";

const file = path.join(process.cwd(), "docs", "configuration.md");
const doc = readFileSync(file, "utf8");
const current = withSettingsTable(doc);
if (process.argv.includes("--check")) {
  if (current !== doc) {
    console.error("docs/configuration.md differs from lib/config/settings.ts; run npm run docs:settings.");
    process.exit(1);
  }
  console.log("docs/configuration.md lists every setting as the schema has it.");
} else if (current !== doc) {
  writeFileSync(file, current);
  console.log("docs/configuration.md: settings table rewritten from lib/config/settings.ts.");
} else {
  console.log("docs/configuration.md: settings table already current.");
}
