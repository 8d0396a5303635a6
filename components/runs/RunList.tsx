"use client";

import { fetchRunPage, runsListKey } from "./api";
import { RunListView } from "./RunListView";

/** The signed-in person's autonomous runs, newest first, a page at a time. */
export function RunList() {
  return (
    <RunListView
      spec={{
        queryKey: runsListKey,
        fetchPage: fetchRunPage,
        href: (id) => `/runs/${id}`,
        rowTestId: "run-row",
        label: "Runs",
        untitled: "Untitled run",
        loading: "Loading your runs…",
        failed: "Could not load your runs",
        empty: {
          title: "No autonomous runs yet",
          body: "Give an expert a goal: it plans the work, asks for approval at each checkpoint and answers with citations.",
        },
        showOutcome: true,
      }}
    />
  );
}
