import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import * as documentRoute from "@/app/api/knowledge/documents/[id]/route";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as searchRoute from "@/app/api/knowledge/search/route";
import * as sessionRoute from "@/app/api/session/route";
import { openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { listDocuments } from "@/lib/rag";
import type { IngestProgress, KnowledgeDocument } from "@/lib/rag/contract";
import { boot } from "@/lib/server";
import { kill9, killLeftovers, spawnScript } from "../operations/support";
import { appTargets, testTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase, seedTenants } from "../support/seeded";
import { largeMarkdown } from "./large-document";
import { countRows, statisticsDrift } from "./support";

// A large upload must not stall the server: it is extracted in a worker thread and, on the
// embedded database, written in short transactions; the uploader follows its progress. These
// tests measure behaviour with generous bounds — how fast it goes is bench:ingest's business.

const MiB = 1024 * 1024;
/** Far above a slice's few dozen milliseconds; far below the seconds one transaction held the loop for. */
const STALL_MS = 1500;

interface Streamed {
  progress: IngestProgress[];
  outcome: { event: string; data: Record<string, unknown> };
}

/** Reads an upload's server-sent events as they arrive; `onProgress` may act mid-upload. */
async function readUpload(res: Response, onProgress: (p: IngestProgress) => Promise<void> = async () => {}) {
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const streamed: Partial<Streamed> & { progress: IngestProgress[] } = { progress: [] };
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const line = /^data: (.*)$/m.exec(block)?.[1];
      // A comment (": keep-alive", after 15 s without an event) is no event: readers skip it.
      if (line === undefined) continue;
      const event = /^event: (.*)$/m.exec(block)?.[1] as string;
      const data = JSON.parse(line);
      if (event === "progress") {
        streamed.progress.push(data);
        await onProgress(data);
      } else {
        streamed.outcome = { event, data };
      }
    }
  }
  return streamed as Streamed;
}

function upload(cookie: string, markdown: string, name: string) {
  const form = new FormData();
  form.append("file", new File([markdown], name, { type: "text/markdown" }));
  form.append("domains", "handbook");
  return documentsRoute.POST(
    new Request("http://localhost/api/knowledge/documents", {
      method: "POST",
      headers: { cookie, accept: "text/event-stream" },
      body: form,
    }),
    { params: Promise.resolve({}) },
  );
}

/**
 * A stretch of wall time, counted only as far as this process spent CPU in it (all its threads).
 * A stretch the process spent computing counts whole; one it spent waiting for a CPU another
 * process held — the machine busy with other suites — does not: that is no stall of ours.
 */
function busyMs(wallMs: number, cpuBefore: NodeJS.CpuUsage): number {
  const cpu = process.cpuUsage(cpuBefore);
  return Math.min(wallMs, (cpu.user + cpu.system) / 1000);
}

/**
 * How long the event loop went without running a 10 ms timer, at worst, while `work` ran:
 * the stretch's CPU time (busyMs), and its wall time for the failure message.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; wallMs: number }> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let stallMs = 0;
  let wallMs = 0;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, busyMs(now - last, lastCpu));
    wallMs = Math.max(wallMs, now - last);
    last = now;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(tick, 10);
  try {
    const result = await work();
    tick();
    return { result, stallMs, wallMs };
  } finally {
    clearInterval(timer);
  }
}

afterEach(killLeftovers);

// The application's database runs every test; the deletion mid-upload needs PGlite, whose
// indexing lists the document between progress events. appTargets() is the server when there is
// one, which registered that test nowhere (a run with TEST_DATABASE_URL never ran it): PGlite is
// added for it.
const appNames = new Set(appTargets().map((t) => t.name));
const uploadTargets = testTargets().filter((t) => appNames.has(t.name) || t.name === "pglite");

for (const target of uploadTargets) {
  describe(`a large upload on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let admin: string;

    beforeAll(async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "admin@demo.local", password: "vigil-demo" },
      });
      admin = cookieHeader(res);
    });

    if (appNames.has(target.name)) {
      it("keeps the event loop turning and health answering, and reports its progress to the end", async () => {
        const markdown = largeMarkdown(1.5 * MiB, "quokkaband");
        const health: { ms: number; during: boolean }[] = [];
        let uploading = true;
        const statusesSeen = new Set<string>();
        const probing = (async () => {
          while (uploading) {
            const started = performance.now();
            const cpu = process.cpuUsage();
            const res = await call(healthRoute.GET, { path: "/api/health" });
            expect(res.status).toBe(200);
            health.push({ ms: busyMs(performance.now() - started, cpu), during: uploading });
            await new Promise((r) => setTimeout(r, 50));
          }
        })();

        const {
          result: streamed,
          stallMs,
          wallMs,
        } = await longestStall(async () => {
          const res = await upload(admin, markdown, "handbook.md");
          return readUpload(res, async (p) => {
            if (target.name === "pglite" && p.phase === "indexing" && p.chunksDone > 0 && statusesSeen.size === 0) {
              // Mid-upload the document is listed, as still indexing.
              const page = await listDocuments({ tenantId: suite.tenants.demo });
              for (const doc of page.items) if (doc.title.startsWith("Large handbook")) statusesSeen.add(doc.status);
            }
          });
        });
        uploading = false;
        await probing;

        expect(streamed.outcome.event, JSON.stringify(streamed.outcome.data)).toBe("result");
        const document = streamed.outcome.data.document as KnowledgeDocument;
        expect(streamed.outcome.data).toMatchObject({ created: true, httpStatus: 201 });
        expect(document.status).toBe("ready");

        // Extracting first, then chunks indexed, never going back, ending at the whole document.
        expect(streamed.progress[0]).toEqual({ phase: "extracting" });
        const indexed = streamed.progress.filter((p) => p.phase === "indexing");
        const done = indexed.map((p) => p.chunksDone);
        expect(done).toEqual([...done].sort((a, b) => a - b));
        expect(indexed.at(-1)).toEqual({
          phase: "indexing",
          chunksDone: document.chunkCount,
          chunksTotal: document.chunkCount,
        });
        if (target.name === "pglite") {
          expect(new Set(done).size).toBeGreaterThan(3);
          expect([...statusesSeen]).toEqual(["indexing"]);
        }

        expect(stallMs, `longest stall ${Math.round(wallMs)} ms of wall time`).toBeLessThan(STALL_MS);
        expect(health.filter((h) => h.during).length).toBeGreaterThan(0);
        expect(Math.max(...health.map((h) => h.ms))).toBeLessThan(STALL_MS);

        const search = await call(searchRoute.GET, {
          path: "/api/knowledge/search?q=quokkaband",
          headers: { cookie: admin },
        });
        expect((search.body.items as { documentId: string }[])[0]?.documentId).toBe(document.id);
        const drift = await statisticsDrift(suite.database, suite.tenants.demo);
        expect(drift.wrongDf).toBe(0);
        expect(drift.stats.kept_n).toBe(drift.stats.true_n);
        expect(drift.stats.kept_len).toBe(drift.stats.true_len);
      });
    }

    if (target.name === "pglite") {
      it("ends with a conflict and leaves nothing behind when the document is deleted mid-upload", async () => {
        const before = await countRows(suite.database, "knowledge_chunks", suite.tenants.demo);
        let deleted = false;
        const streamed = await readUpload(
          await upload(admin, largeMarkdown(0.5 * MiB, "wallabyform"), "deleted.md"),
          async (p) => {
            if (deleted || p.phase !== "indexing" || p.chunksDone === 0) return;
            deleted = true;
            const page = await listDocuments({ tenantId: suite.tenants.demo });
            const staged = page.items.find((d) => d.status === "indexing") as KnowledgeDocument;
            const res = await call(documentRoute.DELETE, {
              method: "DELETE",
              path: `/api/knowledge/documents/${staged.id}`,
              params: { id: staged.id },
              headers: { cookie: admin },
            });
            expect(res.status).toBe(200);
          },
        );
        expect(streamed.outcome).toMatchObject({
          event: "error",
          data: { status: "error", code: "DOCUMENT_DELETED", httpStatus: 409 },
        });
        expect(await countRows(suite.database, "knowledge_chunks", suite.tenants.demo)).toBe(before);
        const drift = await statisticsDrift(suite.database, suite.tenants.demo);
        expect(drift.wrongDf).toBe(0);
        expect(drift.stats.kept_n).toBe(drift.stats.true_n);
      });
    }
  });
}

describe("an embedded server killed mid-upload", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-upload-crash-"));
  });
  afterAll(async () => {
    setActiveDatabase(undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it("leaves a half-indexed document that the next process removes, statistics exact", async () => {
    const dataDir = path.join(dir, "pglite");
    const seeding = await openDatabase({ dataDir });
    const tenants = await seedTenants(seeding, { knowledge: false });
    await seeding.close();

    const server = spawnScript(["tests/rag/upload-worker.ts"], { VIGIL_DATA_DIR: dataDir, VIGIL_SEED: "off" });
    const report = await server.next();
    expect(report).toMatchObject({ status: "indexing" });
    await kill9(server, report.pid as number);

    const database = await openDatabase({ dataDir });
    setActiveDatabase(database);
    await boot({ sweeps: false });
    const staged = async () =>
      rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from knowledge_documents where content_hash like 'indexing:%'`,
        ),
      )[0].n;
    expect(await staged()).toBe(1);

    const page = await listDocuments({ tenantId: tenants.demo });
    expect(page.items).toEqual([]);
    expect(await staged()).toBe(0);
    expect(await countRows(database, "knowledge_chunks", tenants.demo)).toBe(0);
    expect(await statisticsDrift(database, tenants.demo)).toEqual({
      wrongDf: 0,
      stats: { kept_n: 0, kept_len: 0, true_n: 0, true_len: 0 },
    });
    setActiveDatabase(undefined);
    await database.close();
  });
});
