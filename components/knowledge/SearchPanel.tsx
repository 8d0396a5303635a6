"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import { knowledgeFetch, type SearchBody } from "./api";
import { DomainChip } from "./DocumentList";

const SNIPPET = 280;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET
    ? `${flat
        .slice(0, SNIPPET)
        .replace(/\s\S*$/, "")
        .replace(/[\s.,;:]+$/, "")}…`
    : flat;
}

/** Try the retrieval the experts use: the top passages for a question, with their scores. */
export function SearchPanel({ domains }: { domains: string[] }) {
  const ids = useId();
  const [text, setText] = useState("");
  const [domain, setDomain] = useState("");
  const [submitted, setSubmitted] = useState<{ q: string; domain: string } | null>(null);

  const search = useQuery({
    queryKey: ["knowledge-search", submitted],
    enabled: submitted !== null,
    staleTime: 0,
    queryFn: () => {
      const params = new URLSearchParams({ q: submitted?.q ?? "", k: "8" });
      if (submitted?.domain) params.set("domain", submitted.domain);
      return knowledgeFetch<SearchBody>(`/api/knowledge/search?${params}`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = text.trim();
    if (!q) return;
    const next = { q: q.slice(0, 1000), domain };
    // The same search again asks again: the knowledge base may have changed since.
    if (submitted && submitted.q === next.q && submitted.domain === next.domain) void search.refetch();
    else setSubmitted(next);
  }

  return (
    <section
      aria-labelledby={`${ids}-heading`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${ids}-heading`} className="text-lg font-medium">
        Try a search
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        The passages an expert would retrieve for a question, ranked by BM25.
      </p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Search the knowledge base">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm">
          Question or keywords
          <Input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={1000}
            placeholder="e.g. What does a 510(k) need to show?"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Domain
          <Select value={domain} onChange={(e) => setDomain(e.target.value)} className="px-2">
            <option value="">All domains</option>
            {domains.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Select>
        </label>
        <Button type="submit" disabled={!text.trim()}>
          Search
        </Button>
      </form>

      <div aria-live="polite" aria-busy={search.isFetching}>
        {submitted === null ? null : search.error ? (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            {search.error.message}
          </p>
        ) : search.isPending ? (
          <p className="text-sm text-slate-500">Searching…</p>
        ) : search.data.items.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="search-empty">
            Nothing in the knowledge base matches “{submitted.q}”{submitted.domain ? ` in ${submitted.domain}` : ""}.
          </p>
        ) : (
          <>
            <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
              {search.data.count} {search.data.count === 1 ? "passage" : "passages"} ·{" "}
              {search.data.retrieval === "hybrid" ? "BM25 fused with vector similarity" : "BM25"}
              {submitted.domain ? (
                <>
                  {" "}
                  · <DomainChip domain={submitted.domain} />
                </>
              ) : null}
            </p>
            <ol className="space-y-2" aria-label="Search results">
              {search.data.items.map((hit, i) => (
                <li
                  key={hit.chunkId}
                  data-testid="search-hit"
                  className="rounded-lg border border-slate-200 p-3 dark:border-slate-800"
                >
                  <div className="flex items-baseline gap-2">
                    <span className="text-xs text-slate-400 tabular-nums">{i + 1}.</span>
                    <h3 className="min-w-0 flex-1 font-medium">{hit.title}</h3>
                    <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400" title="Score">
                      score {hit.score.toFixed(hit.score < 1 ? 4 : 2)}
                    </span>
                  </div>
                  {(hit.section || hit.page != null) && (
                    <p className="text-xs text-slate-500 dark:text-slate-400">
                      {[hit.section, hit.page != null ? `page ${hit.page}` : null].filter(Boolean).join(" · ")}
                    </p>
                  )}
                  <p className="mt-1 text-sm leading-relaxed text-slate-700 dark:text-slate-300">{snippet(hit.text)}</p>
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </section>
  );
}
