"use client";

import { type InfiniteData, type UseInfiniteQueryResult, useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { Button } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import {
  DataTable,
  DataTableBody,
  DataTableCell,
  DataTableHead,
  DataTableHeader,
  DataTableRow,
} from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { Input } from "@/components/ui/Input";
import {
  addedBy,
  DOCUMENTS_KEY,
  type DocumentPage,
  FORMAT_LABELS,
  formatBytes,
  formatWhen,
  type KnowledgeDocument,
  knowledgeFetch,
  LANGUAGE_LABELS,
} from "./api";
import { ClassificationBadge } from "./Classification";

export function DomainChip({ domain }: { domain: string }) {
  return (
    <span className="inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700 dark:bg-slate-800 dark:text-brand-100">
      {domain}
    </span>
  );
}

/** The tenant's documents, newest first, filtered by title over the pages loaded so far. */
export function DocumentList({
  documents: query,
  currentUserId,
}: {
  documents: UseInfiniteQueryResult<InfiniteData<DocumentPage>, Error>;
  currentUserId: string;
}) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState("");
  const needle = useDeferredValue(filter.trim().toLowerCase());
  const [notice, setNotice] = useState<string | null>(null);

  const remove = useMutation({
    mutationFn: (doc: KnowledgeDocument) =>
      knowledgeFetch<{ document: KnowledgeDocument }>(`/api/knowledge/documents/${doc.id}`, { method: "DELETE" }),
    onSuccess: ({ document }) => {
      setNotice(`Deleted “${document.title}”.`);
      queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
    },
    // A document deleted elsewhere is gone either way: refresh the list.
    onError: () => queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY }),
  });

  const deleteQuestion = (doc: KnowledgeDocument) =>
    `Delete “${doc.title}” and its ${doc.chunkCount} ${doc.chunkCount === 1 ? "chunk" : "chunks"}? Agents will no longer find it.`;

  const all = query.data?.pages.flatMap((p) => p.items) ?? [];
  const shown = needle ? all.filter((d) => d.title.toLowerCase().includes(needle)) : all;

  return (
    <section aria-labelledby="documents-heading" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="documents-heading" className="text-lg font-medium">
          Documents
        </h2>
        <Input
          type="search"
          aria-label="Filter documents by title"
          placeholder="Filter by title"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          className="ml-auto w-full max-w-xs py-1.5"
        />
      </div>

      <div aria-live="polite" className="text-sm">
        {notice && (
          <p data-testid="delete-result" className="text-emerald-700 dark:text-emerald-300">
            {notice}
          </p>
        )}
      </div>
      {remove.error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          Could not delete: {remove.error.message}
        </p>
      )}

      {query.error && !query.data ? (
        <div
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          Could not load the documents: {query.error.message}{" "}
          <Button variant="link" size="inline" className="text-current underline" onClick={() => query.refetch()}>
            Try again
          </Button>
        </div>
      ) : query.isPending ? (
        <p className="text-sm text-slate-500" aria-busy="true">
          Loading documents…
        </p>
      ) : all.length === 0 ? (
        <EmptyState title="No documents yet">
          Upload Markdown, text, HTML or PDF files above; experts answer from them with citations.
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title={`No loaded document title matches “${filter.trim()}”`}>
          {query.hasNextPage
            ? "Only the documents loaded so far are filtered: load more below, or try a search of the contents."
            : "Try another word, or search the contents below."}
        </EmptyState>
      ) : (
        // From `md` up a table in a frame; on a phone each document is a card with Delete in view.
        // `relative`: the sr-only header is positioned against this box instead of the page.
        <div className="relative md:rounded-xl md:border md:border-slate-200 md:bg-white md:dark:border-slate-800 md:dark:bg-slate-900">
          <DataTable aria-describedby="documents-heading">
            <DataTableHead className="dark:text-slate-400">
              <tr>
                <DataTableHeader scope="col" className="px-4">
                  Title
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-2">
                  Format
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-2">
                  Domains
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-2 text-right">
                  Chunks
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-2 text-right">
                  Size
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-2">
                  Added
                </DataTableHeader>
                <DataTableHeader scope="col" className="px-4">
                  <span className="sr-only">Actions</span>
                </DataTableHeader>
              </tr>
            </DataTableHead>
            <DataTableBody>
              {shown.map((doc) => {
                const deleting = remove.isPending && remove.variables?.id === doc.id;
                return (
                  <DataTableRow key={doc.id} data-testid="document-row" className="align-top">
                    <DataTableCell className="md:px-4">
                      <div className="font-medium">
                        <Link
                          href={`/knowledge/${doc.id}`}
                          className="text-brand-700 underline-offset-2 hover:underline focus-visible:underline dark:text-brand-100"
                        >
                          {doc.title}
                        </Link>
                        {doc.status === "indexing" && (
                          <span
                            data-testid="document-indexing"
                            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-normal text-amber-900 dark:bg-amber-950 dark:text-amber-200"
                          >
                            Indexing…
                          </span>
                        )}
                        {doc.dataClassification !== "public" && (
                          <span className="ml-2">
                            <ClassificationBadge value={doc.dataClassification} />
                          </span>
                        )}
                      </div>
                      {doc.externalId && (
                        <div className="break-all font-mono text-[11px] text-slate-400">{doc.externalId}</div>
                      )}
                    </DataTableCell>
                    <DataTableCell label="Format" className="md:px-2">
                      {FORMAT_LABELS[doc.format] ?? doc.format}
                      <span className="text-[11px] text-slate-400 max-md:ml-2 md:block" data-testid="document-language">
                        {LANGUAGE_LABELS[doc.language] ?? doc.language}
                      </span>
                    </DataTableCell>
                    <DataTableCell className="md:px-2">
                      <div className="flex flex-wrap gap-1">
                        {doc.domains.map((d) => (
                          <DomainChip key={d} domain={d} />
                        ))}
                      </div>
                    </DataTableCell>
                    <DataTableCell
                      label="Chunks"
                      className="tabular-nums md:px-2 md:text-right"
                      data-testid="chunk-count"
                    >
                      {doc.chunkCount}
                    </DataTableCell>
                    <DataTableCell label="Size" className="tabular-nums whitespace-nowrap md:px-2 md:text-right">
                      {formatBytes(doc.byteSize)}
                    </DataTableCell>
                    <DataTableCell label="Added" className="md:px-2 md:whitespace-nowrap">
                      <time dateTime={doc.createdAt} title={new Date(doc.createdAt).toLocaleString()}>
                        {formatWhen(doc.createdAt)}
                      </time>
                      <span className="text-xs text-slate-500 max-md:ml-1 md:block dark:text-slate-400">
                        by {addedBy(doc.createdBy, currentUserId)}
                      </span>
                    </DataTableCell>
                    <DataTableCell actions className="md:px-4">
                      <ConfirmButton
                        label={deleting ? "Deleting…" : "Delete"}
                        ariaLabel={`Delete ${doc.title}`}
                        question={deleteQuestion(doc)}
                        confirmLabel="Delete document"
                        className="text-sm text-red-600 underline disabled:opacity-50 dark:text-red-400"
                        disabled={deleting}
                        onConfirm={() => {
                          setNotice(null);
                          remove.mutate(doc);
                        }}
                      />
                    </DataTableCell>
                  </DataTableRow>
                );
              })}
            </DataTableBody>
          </DataTable>
        </div>
      )}

      {query.data && (
        <div className="flex items-center gap-3 text-sm text-slate-500 dark:text-slate-400">
          <span>
            {needle ? `${shown.length} of ` : ""}
            {all.length} {all.length === 1 ? "document" : "documents"} loaded
          </span>
          {query.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          )}
          {query.error && query.data && <span role="alert">Could not load more: {query.error.message}</span>}
        </div>
      )}
    </section>
  );
}
