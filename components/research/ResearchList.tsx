"use client";

import { RunListView } from "@/components/runs/RunListView";
import { fetchResearchPage, researchListKey } from "./api";

/** The signed-in person's research runs, newest first, a page at a time. */
export function ResearchList() {
  return (
    <RunListView
      spec={{
        queryKey: researchListKey,
        fetchPage: (cursor) => fetchResearchPage(cursor),
        href: (id) => `/research/${id}`,
        rowTestId: "research-row",
        label: "Research runs",
        untitled: "Untitled research",
        loading: "Loading your research…",
        failed: "Could not load your research",
        empty: {
          title: "No research yet",
          body: "Ask a question: the analyst clarifies it with you, agrees a plan, digs through your documents and writes a report that cites the page of every claim.",
        },
      }}
    />
  );
}
