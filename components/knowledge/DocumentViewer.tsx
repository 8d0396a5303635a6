"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ArrowLeft, LoaderCircle } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import {
  addedBy,
  CHUNK_PAGE_SIZE,
  CHUNKS_KEY,
  type ChunkPage,
  type DocumentOverview,
  FORMAT_LABELS,
  formatBytes,
  formatWhen,
  knowledgeFetch,
} from "./api";
import { ChunkList, pageRange } from "./ChunkList";
import { ClassificationBadge, ClassificationControl } from "./Classification";
import { DomainChip } from "./DocumentList";
import { DocumentOutline } from "./DocumentOutline";
import { EvidenceLevelControl, evidenceLevelLabel } from "./EvidenceLevel";

/**
 * One document as the experts read it: what it is, its outline, and its chunks in order, grouped
 * by section with their pages. Chunks load a page at a time; the outline jumps into the middle.
 */
export function DocumentViewer({
  overview,
  canManage,
  currentUserId,
}: {
  overview: DocumentOverview;
  canManage: boolean;
  currentUserId: string;
}) {
  const { document: doc, pageCount, sections } = overview;
  const router = useRouter();
  // The first chunk shown: 0, or where the outline jumped to.
  const [start, setStart] = useState(0);
  const chunksHeading = useRef<HTMLHeadingElement>(null);
  const indexing = doc.status === "indexing";

  // A document still being indexed gains chunks: read the overview again until it is done.
  useEffect(() => {
    if (!indexing) return;
    const timer = setInterval(() => router.refresh(), 3000);
    return () => clearInterval(timer);
  }, [indexing, router]);

  const chunks = useInfiniteQuery({
    queryKey: [CHUNKS_KEY, doc.id, start],
    initialPageParam: start > 0 ? String(start - 1) : null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(CHUNK_PAGE_SIZE) });
      if (pageParam) params.set("cursor", pageParam);
      return knowledgeFetch<ChunkPage>(`/api/knowledge/documents/${doc.id}/chunks?${params}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const loaded = chunks.data?.pages.flatMap((p) => p.items) ?? [];

  const jumpTo = (ord: number) => {
    setStart(ord);
    chunksHeading.current?.focus();
  };

  return (
    <article data-testid="document-viewer" className="space-y-6">
      {canManage && (
        <Link
          href="/knowledge"
          className="inline-flex items-center gap-1 text-sm text-slate-600 hover:underline dark:text-slate-400"
        >
          <ArrowLeft aria-hidden className="size-4" /> Knowledge base
        </Link>
      )}
      <header className="space-y-3">
        <h1 className="break-words text-2xl font-semibold">{doc.title}</h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="text-slate-500 dark:text-slate-400">Status</dt>
          <dd data-testid="document-status">{indexing ? "Indexing" : "Ready"}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Format</dt>
          <dd>{FORMAT_LABELS[doc.format] ?? doc.format}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Domains</dt>
          <dd className="flex flex-wrap gap-1">
            {doc.domains.map((d) => (
              <DomainChip key={d} domain={d} />
            ))}
          </dd>
          <dt className="text-slate-500 dark:text-slate-400">Sensitivity</dt>
          <dd>
            {canManage ? <ClassificationControl doc={doc} /> : <ClassificationBadge value={doc.dataClassification} />}
          </dd>
          <dt className="text-slate-500 dark:text-slate-400">Evidence level</dt>
          <dd data-testid="document-evidence-level">
            {canManage ? <EvidenceLevelControl doc={doc} /> : evidenceLevelLabel(doc.evidenceLevel)}
          </dd>
          <dt className="text-slate-500 dark:text-slate-400">Size</dt>
          <dd data-testid="document-size">
            {formatBytes(doc.byteSize)}
            {pageCount !== null && ` · ${pageCount} ${pageCount === 1 ? "page" : "pages"}`}
          </dd>
          <dt className="text-slate-500 dark:text-slate-400">Chunks</dt>
          <dd data-testid="document-chunk-count" className="tabular-nums">
            {doc.chunkCount}
          </dd>
          <dt className="text-slate-500 dark:text-slate-400">Added</dt>
          <dd>
            <time dateTime={doc.createdAt} title={new Date(doc.createdAt).toLocaleString()}>
              {formatWhen(doc.createdAt)}
            </time>{" "}
            by {addedBy(doc.createdBy, currentUserId)}
          </dd>
          {doc.externalId && (
            <>
              <dt className="text-slate-500 dark:text-slate-400">External id</dt>
              <dd className="break-all font-mono text-xs">{doc.externalId}</dd>
            </>
          )}
        </dl>
      </header>

      {indexing && (
        <p
          role="status"
          data-testid="document-indexing"
          className="flex items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          <LoaderCircle aria-hidden className="size-4 animate-spin" />
          Still being indexed: the chunks written so far are shown and already searchable. This page updates until it is
          done.
        </p>
      )}

      {sections.length > 1 && <DocumentOutline sections={sections} onJump={jumpTo} />}

      <section aria-labelledby="chunks-heading" className="space-y-4">
        <h2 id="chunks-heading" ref={chunksHeading} tabIndex={-1} className="text-lg font-medium outline-none">
          Chunks
        </h2>
        {start > 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Showing from chunk {start}.{" "}
            <Button
              variant="link"
              size="inline"
              className="font-normal text-inherit underline dark:text-inherit"
              onClick={() => jumpTo(0)}
            >
              Show from the beginning
            </Button>
          </p>
        )}
        {chunks.error && !chunks.data ? (
          <div
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            Could not load the chunks: {chunks.error.message}{" "}
            <Button
              variant="link"
              size="inline"
              className="font-normal text-inherit underline dark:text-inherit"
              onClick={() => chunks.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : chunks.isPending ? (
          <p className="text-sm text-slate-500" aria-busy="true">
            Loading chunks…
          </p>
        ) : loaded.length === 0 ? (
          <EmptyState title={indexing ? "No chunks written yet" : "This document has no chunks"}>
            {indexing
              ? "Its text is being split and indexed; the first chunks appear here in a moment."
              : "Nothing in it could be indexed, so experts cannot cite it. Delete it and upload the file again."}
          </EmptyState>
        ) : (
          <ChunkList chunks={loaded} hasSections={sections.some((s) => s.section !== null)} />
        )}
        {chunks.data && (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-500 dark:text-slate-400">
            <span data-testid="chunks-shown">
              {loaded.length > 0
                ? `Chunks ${loaded[0].ord}–${loaded[loaded.length - 1].ord} of ${doc.chunkCount}`
                : `0 of ${doc.chunkCount} chunks`}
              {loaded.length > 0 &&
                pageCount !== null &&
                ` · ${pageRange(loaded[0].page, loaded.at(-1)?.page ?? null)}`}
            </span>
            {chunks.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => chunks.fetchNextPage()}
                disabled={chunks.isFetchingNextPage}
              >
                {chunks.isFetchingNextPage ? "Loading…" : "Load more chunks"}
              </Button>
            )}
            {chunks.error && chunks.data && <span role="alert">Could not load more: {chunks.error.message}</span>}
          </div>
        )}
      </section>
    </article>
  );
}
