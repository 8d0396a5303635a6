import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ReportSource } from "@/components/research/api";
import { SourcesPanel } from "@/components/research/SourcesPanel";

// The report's sources panel as the reader's browser receives it: a fallback (web_search)
// source opens its address in a new tab with rel="noopener noreferrer"; only http(s) addresses
// become links; the tenant's own documents have none.

const source = (n: number, extra: Partial<ReportSource>): ReportSource => ({
  n,
  document: `Source ${n}`,
  document_id: `doc-${n}`,
  chunk_id: `chunk-${n}`,
  page: null,
  section: null,
  excerpt: "Steam sterilisation needs 121 °C for 15 minutes.",
  tier: 3,
  ...extra,
});

const render = (sources: ReportSource[]) =>
  renderToString(createElement(SourcesPanel, { sources, open: null, onOpen: () => {} }));

/** Each link of the rendered panel: its address and its attributes. */
const links = (html: string) =>
  [...html.matchAll(/<a\b([^>]*)>/g)].map((m) => ({
    href: m[1].match(/href="([^"]*)"/)?.[1] ?? null,
    rel: m[1].match(/rel="([^"]*)"/)?.[1] ?? null,
    target: m[1].match(/target="([^"]*)"/)?.[1] ?? null,
  }));

describe("the research report's sources panel", () => {
  it("opens a web search source at its address, as a safe external link", () => {
    const html = render([
      source(1, { tier: 1, source_type: "vector_search", page: 4 }),
      source(2, { source_type: "web_search", url: "https://example.org/who-steam-sterilisation?x=1&y=2" }),
    ]);
    expect(links(html)).toEqual([
      {
        href: "https://example.org/who-steam-sterilisation?x=1&amp;y=2",
        rel: "noopener noreferrer",
        target: "_blank",
      },
    ]);
    expect(html).toContain("example.org");
  });

  it("renders no link for an address that is not http(s), and shows it as text", () => {
    const html = render([
      source(1, { source_type: "web_search", url: "javascript:alert(document.cookie)" }),
      source(2, { source_type: "web_search", url: "data:text/html,<script>alert(1)</script>" }),
      source(3, { source_type: "web_search", url: "not a url" }),
    ]);
    expect(links(html)).toEqual([]);
    expect(html).not.toMatch(/href="(?:javascript|data):/i);
    expect(html.replaceAll("<!-- -->", "")).toContain(
      "javascript:alert(document.cookie) (not a web address; not opened)",
    );
    expect(html).not.toContain("<script>");
  });

  it("gives the tenant's own documents no external link, whatever they carry", () => {
    const html = render([
      source(1, { tier: 1, source_type: "vector_search" }),
      source(2, { tier: 2, source_type: "reference", url: "https://example.org/should-not-link" }),
    ]);
    expect(links(html)).toEqual([]);
    expect(html).not.toContain("should-not-link");
  });

  it("links a report written before sources kept their type by its address alone", () => {
    const html = render([source(1, { url: "http://example.net/older" })]);
    expect(links(html).map((l) => l.href)).toEqual(["http://example.net/older"]);
  });
});
