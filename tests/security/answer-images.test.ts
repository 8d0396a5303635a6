import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerImageSources, AnswerMarkdown } from "@/components/chat/AnswerMarkdown";

/** An answer as the reader's browser receives it, under the given image allowlist. */
function render(text: string, imageSources?: string[]): string {
  const answer = createElement(AnswerMarkdown, { text, streaming: false, sources: [], onOpenCitation: () => {} });
  return renderToString(imageSources ? createElement(AnswerImageSources, { sources: imageSources }, answer) : answer);
}

/** Every URL an element of the rendered answer would fetch on its own. */
function fetchedUrls(html: string): string[] {
  return [
    ...html.matchAll(/<(?:img|source|video|audio|iframe|image|input)\b[^>]*?\s(?:src|srcset|poster|href)="([^"]*)"/gi),
  ].map((m) => m[1]);
}

describe("images in an answer", () => {
  it("does not load an image from a host nobody allowed, in markdown or in raw HTML", () => {
    const html = render(
      [
        "The SOP says to log excursions. ![x](https://evil.example/p.png?c=1)",
        "",
        '<img src="https://evil.example/q.png?c=2">',
        "",
        '<picture><source srcset="https://evil.example/r.png"><img src="/own.png"></picture>',
        "",
        '<video poster="https://evil.example/s.png"></video> <svg><image href="https://evil.example/t.png"/></svg>',
        "",
        "![ref][pic]",
        "",
        "[pic]: //evil.example/u.png",
      ].join("\n"),
    );
    expect(html).toContain("The SOP says to log excursions.");
    expect(fetchedUrls(html)).toEqual(["/own.png"]);
    expect(html).not.toContain("evil.example/");
  });

  it("loads images from Vigil itself and the allowlisted prefixes only", () => {
    const html = render(
      [
        "![own](/api/knowledge/figure.png)",
        "![listed](https://images.example.com/a/b.png)",
        "![under the listed folder](https://cdn.example.org/figures/c.png)",
        "![beside the listed folder](https://cdn.example.org/private/d.png)",
        "![lookalike](https://images.example.com.evil.example/e.png)",
      ].join("\n\n"),
      ["https://images.example.com/", "https://cdn.example.org/figures/"],
    );
    expect(fetchedUrls(html)).toEqual([
      "/api/knowledge/figure.png",
      "https://images.example.com/a/b.png",
      "https://cdn.example.org/figures/c.png",
    ]);
    expect(html).toContain("Image blocked");
  });
});

describe("ids in an answer", () => {
  it("prefixes ids and names so an answer cannot shadow the page's own elements", () => {
    const html = render('<div id="csrf">a</div> <span id="next" name="returnTo">b</span>\n\n<h2 id="steps">Steps</h2>');
    expect(html).toContain('id="user-content-csrf"');
    expect(html).toContain('id="user-content-next"');
    expect(html).toContain('name="user-content-returnTo"');
    expect(html).toContain('id="user-content-steps"');
    expect(html).not.toMatch(/(id|name)="(csrf|next|returnTo|steps)"/);
  });

  it("prefixes a footnote's id once", () => {
    const html = render("A claim.[^1]\n\n[^1]: The note.");
    expect(html).toContain('id="user-content-fn-1"');
    expect(html).not.toContain("user-content-user-content-");
  });
});
