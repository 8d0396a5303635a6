// `npm test`: every check the project has, in order, ending with one summary line
// `N passed, N failed, N skipped` summed over all suites (from their JSON reports).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const results = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const failedTests = [];

const relative = (file) => file.replace(`${process.cwd()}/`, "");

/** The titles of the Playwright specs whose outcome was unexpected, from its JSON report. */
function unexpectedSpecs(suites, path = []) {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const own = (suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === "unexpected"))
      .map((spec) => `e2e ${[...here, spec.title].join(" › ")}`);
    return [...own, ...unexpectedSpecs(suite.suites ?? [], here)];
  });
}
mkdirSync("test-results", { recursive: true });

/**
 * Starts a command; resolves to whether it exited 0. Its output goes straight to ours, or, when
 * `quiet`, is kept and printed as one block when it ends (a command running beside another).
 */
function run(label, command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    if (!quiet) console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
    const started = Date.now();
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    let output = "";
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    child.on("close", (code) => {
      if (quiet) console.log(`\n=== ${label}: ${command} ${args.join(" ")}\n${output}`);
      console.log(`=== ${label} finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${code})`);
      resolve(code === 0);
    });
  });
}

function check(label, ok) {
  if (ok) results.passed += 1;
  else {
    results.failed += 1;
    failures.push(label);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// 1. Types and lint count as one check each, run side by side. (Not beside the build: the type
// check reads the route types the build writes into .next/types.)
const [typecheckOk, lintOk] = await Promise.all([
  run("typecheck", "npx", ["tsc", "--noEmit"]),
  run("lint", "npx", ["biome", "check", "."], { quiet: true }),
]);
check("typecheck", typecheckOk);
check("lint", lintOk);

// 2. Unit and integration tests (PGlite, plus the server Postgres when TEST_DATABASE_URL is set),
// with the production build the end-to-end tests need made beside them: much of the Vitest
// stage is spent waiting on databases and child processes, with a core to spare.
rmSync("test-results/vitest.json", { force: true });
const [vitestOk, buildOk] = await Promise.all([
  run("vitest", "npx", [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile=test-results/vitest.json",
  ]),
  // Once built, the embedded database the end-to-end servers start from is seeded for the build
  // while Vitest runs (scripts/e2e-seeded-dir.mjs; the first server would do it otherwise).
  run("build", "npx", ["next", "build"], { quiet: true }).then(async (built) => {
    // Not the build's failure if it fails: the first end-to-end server seeds again, visibly.
    if (built) await run("e2e seed", process.execPath, ["scripts/e2e-seeded-dir.mjs", "--prepare"], { quiet: true });
    return built;
  }),
]);
const vitest = readJson("test-results/vitest.json");
if (vitest) {
  results.passed += vitest.numPassedTests;
  results.failed += vitest.numFailedTests;
  results.skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A suite that fails to load has no failed test to count; count it.
  const brokenFiles = vitest.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0);
  results.failed += brokenFiles.length;
  for (const f of brokenFiles) failures.push(`vitest file ${f.name}`);
  if (vitest.numFailedTests > 0) failures.push("vitest");
  for (const file of vitest.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== "failed") continue;
      // The CI log keeps only its end: the reason goes there with the name.
      const reason = (test.failureMessages ?? []).join(" ").replace(/\s+/g, " ").slice(0, 400);
      failedTests.push(`vitest ${relative(file.name)} › ${test.fullName}\n      ${reason}`);
    }
  }
  // The slowest files, for whoever shortens the suite next.
  const slowest = vitest.testResults
    .map((f) => ({ name: relative(f.name), seconds: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 12);
  console.log(`\nSlowest Vitest files:\n${slowest.map((f) => `  ${f.seconds.toFixed(1)} s  ${f.name}`).join("\n")}`);
} else {
  check("vitest (no report)", false);
}
if (!vitestOk && vitest && vitest.numFailedTests === 0 && results.failed === 0) check("vitest exit code", false);

// 3. End-to-end tests in Debian Chromium against a production build.
if (buildOk) {
  rmSync("test-results/e2e.json", { force: true });
  // The spec process imports server modules (seeding, the audit check): resolve them as the server does.
  await run("e2e", process.execPath, [
    "--import",
    "./scripts/server-only-node.mjs",
    "node_modules/@playwright/test/cli.js",
    "test",
  ]);
  const e2e = readJson("test-results/e2e.json");
  if (e2e) {
    results.passed += e2e.stats.expected + e2e.stats.flaky;
    results.failed += e2e.stats.unexpected;
    results.skipped += e2e.stats.skipped;
    if (e2e.stats.unexpected > 0) failures.push("e2e");
    failedTests.push(...unexpectedSpecs(e2e.suites ?? []));
    if ((e2e.errors ?? []).length > 0 && e2e.stats.expected + e2e.stats.unexpected === 0)
      check("e2e (did not run)", false);
  } else {
    check("e2e (no report)", false);
  }
} else {
  check("next build", false);
}

// The end of the output is what a CI log shows: name every failed test there.
if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
if (failures.length > 0) console.log(`\nFailed: ${failures.join(", ")}`);
if (!existsSync("test-results")) mkdirSync("test-results");
console.log(`\n${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(results.failed > 0 ? 1 : 0);
