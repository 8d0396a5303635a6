import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError } from "@/lib/errors";
import { parseBody } from "./body";
import { statusOf } from "./route";

const Shape = z.object({ name: z.string() });

function request(body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request("http://localhost/x", { method: "POST", body, headers });
}

async function errorOf(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected an DomainError");
}

describe("parseBody", () => {
  it("returns the parsed value", async () => {
    expect(await parseBody(request('{"name":"a"}'), Shape)).toEqual({ name: "a" });
  });

  it("refuses a body over the limit while streaming, even when Content-Length is absent", async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(100));
        controller.close();
      },
    });
    const req = new Request("http://localhost/x", {
      method: "POST",
      body: chunks,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const error = await errorOf(parseBody(req, Shape, 1000));
    expect([statusOf(error), error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const error = await errorOf(parseBody(request("{}", { "content-length": "5000" }), Shape, 1000));
    expect(statusOf(error)).toBe(413);
  });

  it("refuses non-JSON content types with 415", async () => {
    const error = await errorOf(
      parseBody(request("name=a", { "content-type": "application/x-www-form-urlencoded" }), Shape),
    );
    expect([statusOf(error), error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  it("names the failing fields", async () => {
    const error = await errorOf(parseBody(request('{"name":1}'), Shape));
    expect(statusOf(error)).toBe(400);
    expect(error.details).toEqual([{ path: "name", message: expect.any(String) }]);
  });

  it("treats an empty body as invalid JSON", async () => {
    const error = await errorOf(parseBody(request(""), Shape));
    expect(error.code).toBe("INVALID_JSON");
  });
});
