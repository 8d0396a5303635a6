import { afterEach, describe, expect, it, vi } from "vitest";
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

  it("refuses a NUL character in any string, naming where it is", async () => {
    const error = await errorOf(parseBody(request('{"items":[{"name":"a\\u0000b"}]}'), z.unknown()));
    expect([statusOf(error), error.code]).toEqual([400, "VALIDATION_FAILED"]);
    expect(error.details).toEqual([{ path: "items.0.name", message: expect.stringContaining("NUL") }]);
  });

  it("refuses a NUL character in a key", async () => {
    const error = await errorOf(parseBody(request('{"na\\u0000me":"a"}'), z.unknown()));
    expect([statusOf(error), error.code]).toEqual([400, "VALIDATION_FAILED"]);
  });

  it("keeps an escaped backslash followed by u0000, which is no NUL", async () => {
    expect(await parseBody(request('{"name":"\\\\u0000"}'), Shape)).toEqual({ name: "\\u0000" });
  });

  it("refuses a lone surrogate, escaped in a string or a key, naming where it is", async () => {
    for (const [text, path] of [
      ['{"items":[{"name":"a\\ud800"}]}', "items.0.name"],
      ['{"name":"\\udfffb"}', "name"],
      ['{"na\\udc00me":"a"}', "body"],
    ]) {
      const error = await errorOf(parseBody(request(text), z.unknown()));
      expect([statusOf(error), error.code], text).toEqual([400, "VALIDATION_FAILED"]);
      expect(error.details, text).toEqual([{ path, message: expect.stringContaining("surrogate") }]);
    }
  });

  it("keeps a surrogate pair, escaped or not", async () => {
    expect(await parseBody(request('{"name":"\\ud83d\\ude00 ok"}'), Shape)).toEqual({ name: "\u{1F600} ok" });
    expect(await parseBody(request('{"name":"\u{1F600}"}'), Shape)).toEqual({ name: "\u{1F600}" });
  });

  it("refuses a body that is not UTF-8 as invalid JSON rather than guessing", async () => {
    // An encoded surrogate (ED A0 80) and a Latin-1 é (E9): no UTF-8 decoder may accept either.
    for (const bytes of [[0xed, 0xa0, 0x80], [0xe9]]) {
      const body = new Uint8Array([...Buffer.from('{"name":"'), ...bytes, ...Buffer.from('"}')]);
      const error = await errorOf(parseBody(request(body), Shape));
      expect([statusOf(error), error.code]).toEqual([400, "INVALID_JSON"]);
    }
  });

  it("refuses JSON nested 10,000 deep without overflowing the stack, and takes 64 levels", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const error = await errorOf(parseBody(request(deep), z.unknown()));
    expect([statusOf(error), error.code]).toEqual([400, "JSON_TOO_DEEP"]);
    const object = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    expect((await errorOf(parseBody(request(object), z.unknown()))).code).toBe("JSON_TOO_DEEP");
    const allowed = `${"[".repeat(64)}${"]".repeat(64)}`;
    expect(await parseBody(request(allowed), z.unknown())).toBeInstanceOf(Array);
  });
});

describe("parseBody's read deadline", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("gives up on a body that does not arrive in time, and stops reading it", async () => {
    vi.stubEnv("VIGIL_BODY_TIMEOUT_MS", "50");
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        // One byte, then nothing: a client that holds the request open.
        controller.enqueue(new TextEncoder().encode("{"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const req = new Request("http://localhost/x", {
      method: "POST",
      body: trickle,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const error = await errorOf(parseBody(req, Shape));
    expect([statusOf(error), error.code]).toEqual([400, "BODY_TIMEOUT"]);
    expect(cancelled).toBe(true);
  });

  it("reads a body that arrives in time", async () => {
    vi.stubEnv("VIGIL_BODY_TIMEOUT_MS", "5000");
    expect(await parseBody(request('{"name":"a"}'), Shape)).toEqual({ name: "a" });
  });
});
