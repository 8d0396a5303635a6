import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/lib/auth";

describe("the return path after signing in", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeReturnPath("/inbox")).toBe("/inbox");
    expect(safeReturnPath("/runs/abc?tab=trace#step-3")).toBe("/runs/abc?tab=trace#step-3");
    expect(safeReturnPath("/chat/new?agent=qa%20lead")).toBe("/chat/new?agent=qa%20lead");
  });

  it.each([
    ["a backslash after the slash (next=/%5Cevil.example/y)", "/\\evil.example/y"],
    ["a tab between the slashes (next=/%09/evil.example)", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["two slashes", "//evil.example/y"],
    ["two backslashes", "\\\\evil.example"],
    ["a dot segment that collapses to two slashes", "/.//evil.example"],
    ["a parent segment that collapses to two slashes", "/..//evil.example"],
    ["an absolute URL", "https://evil.example/y"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "evil.example"],
    ["nothing", undefined],
    ["an empty string", ""],
    ["a repeated parameter", ["/inbox", "//evil.example"]],
  ])("sends %s home instead", (_label, next) => {
    expect(safeReturnPath(next)).toBe("/");
  });

  it("never returns anything a browser would read as another host", () => {
    const tricky = ["/\\/evil.example", "/\r\n/evil.example", "/%2F%2Fevil.example", "/./\\evil.example", "/\u0000/x"];
    for (const next of tricky) {
      const path = safeReturnPath(next);
      expect(new URL(path, "https://vigil.example").host, `${JSON.stringify(next)} → ${path}`).toBe("vigil.example");
      expect(path.startsWith("//") || path.includes("\\")).toBe(false);
    }
  });
});
