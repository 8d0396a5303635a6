import { describe, expect, it } from "vitest";
import { errorResponse, route } from "@/lib/http";
import { addLogContext, captureLogs, createLogger, logger, withLogContext } from "./logger";

const sink = () => {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
};

describe("the log", () => {
  it("writes one JSON object per line, with the request, run and tenant ids where known", () => {
    const out = sink();
    const log = createLogger("info", out);
    withLogContext({ requestId: "req-1" }, () => {
      addLogContext({ tenantId: "tenant-1" });
      log.child({ runId: "run-1" }).warn({ attempt: 2 }, "lease lost");
      log.debug("below the level");
    });
    log.info("outside any request");
    expect(out.lines).toHaveLength(2);
    const [inside, outside] = out.lines.map((line) => JSON.parse(line));
    expect(inside).toMatchObject({
      level: "warn",
      msg: "lease lost",
      requestId: "req-1",
      tenantId: "tenant-1",
      runId: "run-1",
      attempt: 2,
      pid: process.pid,
    });
    expect(new Date(inside.time).toISOString()).toBe(inside.time);
    expect(outside).toMatchObject({ level: "info", msg: "outside any request" });
    expect(outside).not.toHaveProperty("requestId");
  });

  it("logs an error with its stack under err", () => {
    const out = sink();
    createLogger("error", out).error({ err: new Error("boom") }, "it failed");
    const line = JSON.parse(out.lines[0]);
    expect(line.err).toMatchObject({ type: "Error", message: "boom" });
    expect(line.err.stack).toContain("logger.test.ts");
  });

  it("tags a route's failure with the id its response carries", async () => {
    const logs = captureLogs();
    try {
      const handler = route(async () => {
        logger().warn("about to fail");
        throw new Error("not a domain error");
      });
      const res = await handler(new Request("http://localhost/api/x"), {});
      expect(res.status).toBe(500);
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const mine = logs.lines().filter((line) => line.requestId === id);
      expect(mine.map((line) => [line.level, line.msg])).toEqual([
        ["warn", "about to fail"],
        ["error", "unhandled error"],
      ]);
      // A proxy's own id is kept, so its logs and these line up; one that does not look like an id is not.
      const given = await handler(
        new Request("http://localhost/api/x", { headers: { "x-request-id": "lb-42.7" } }),
        {},
      );
      expect(given.headers.get("x-request-id")).toBe("lb-42.7");
      const odd = await handler(new Request("http://localhost/api/x", { headers: { "x-request-id": "a b" } }), {});
      expect(odd.headers.get("x-request-id")).not.toBe("a b");
    } finally {
      logs.stop();
    }
  });

  it("keeps the answer free of internals while the log has them", async () => {
    const logs = captureLogs();
    try {
      const res = errorResponse(new Error("secret detail"));
      expect(await res.text()).not.toContain("secret detail");
      expect(logs.lines().some((line) => (line.err as { message?: string })?.message === "secret detail")).toBe(true);
    } finally {
      logs.stop();
    }
  });
});
