"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  type AgentList,
  DOCUMENT_PAGE_SIZE,
  DOCUMENTS_KEY,
  type DocumentPage,
  knowledgeFetch,
  knownDomains,
} from "./api";
import { DocumentList } from "./DocumentList";
import { SearchPanel } from "./SearchPanel";
import { UploadForm } from "./UploadForm";

/** The admin's view of the tenant's knowledge base: upload, list, delete, and try a search. */
export function KnowledgeManager({ currentUserId }: { currentUserId: string }) {
  const documents = useInfiniteQuery({
    queryKey: DOCUMENTS_KEY,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(DOCUMENT_PAGE_SIZE) });
      if (pageParam) params.set("cursor", pageParam);
      return knowledgeFetch<DocumentPage>(`/api/knowledge/documents?${params}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // A large upload is listed while it is still being indexed: look again until it is done.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((d) => d.status === "indexing")) ? 3000 : false,
  });
  const agents = useQuery({
    queryKey: ["agents", ""],
    queryFn: () => knowledgeFetch<AgentList>("/api/agents"),
  });

  const loaded = documents.data?.pages;
  const agentItems = agents.data?.items;
  const domains = useMemo(
    () => knownDomains(loaded?.flatMap((p) => p.items) ?? [], agentItems ?? []),
    [loaded, agentItems],
  );

  return (
    <div className="space-y-8">
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <UploadForm domains={domains} />
        <SearchPanel domains={domains} />
      </div>
      <DocumentList documents={documents} currentUserId={currentUserId} />
    </div>
  );
}
