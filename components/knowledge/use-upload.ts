"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import {
  type DataClassification,
  DOCUMENTS_KEY,
  type EvidenceLevel,
  type IngestProgress,
  type KnowledgeDocument,
  type UploadHandle,
  uploadDocument,
} from "./api";

export type UploadPhase =
  | { kind: "idle" }
  | { kind: "sending"; fraction: number }
  /** Sent; the server extracts and indexes it (`progress` as it reports it). */
  | { kind: "indexing"; progress: IngestProgress | null }
  | { kind: "done"; document: KnowledgeDocument; created: boolean }
  | { kind: "failed"; message: string; error: unknown };

export interface UploadRequest {
  file: File;
  domains: string[];
  title: string;
  dataClassification: DataClassification;
  evidenceLevel: EvidenceLevel | null;
}

/**
 * One upload at a time: its phase (sending with the fraction sent, indexing with the server's
 * progress, done, failed), a way to cancel it, and the documents list refreshed when it ends. An
 * upload still running when the page goes away is cancelled.
 */
export function useUpload() {
  const queryClient = useQueryClient();
  const handle = useRef<UploadHandle | null>(null);
  const [phase, setPhase] = useState<UploadPhase>({ kind: "idle" });

  useEffect(() => () => handle.current?.abort(), []);

  const busy = phase.kind === "sending" || phase.kind === "indexing";

  /** Sends the document; resolves with what the server made of it, or null when it failed. */
  async function start(request: UploadRequest): Promise<{ document: KnowledgeDocument; created: boolean } | null> {
    setPhase({ kind: "sending", fraction: 0 });
    const current = uploadDocument(
      request,
      (fraction) => setPhase(fraction >= 1 ? { kind: "indexing", progress: null } : { kind: "sending", fraction }),
      (progress) => setPhase({ kind: "indexing", progress }),
    );
    handle.current = current;
    try {
      const result = await current.promise;
      setPhase({ kind: "done", ...result });
      // The list refreshes on its own time: the caller's follow-up (remembering the upload's
      // domains) must not wait for it, or a person who leaves as soon as "Added" shows loses it.
      void queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
      return result;
    } catch (error) {
      setPhase({ kind: "failed", message: error instanceof Error ? error.message : String(error), error });
      return null;
    } finally {
      handle.current = null;
    }
  }

  return {
    phase,
    busy,
    start,
    cancel: () => handle.current?.abort(),
    /** Back to idle (a new file was chosen), unless an upload is running. */
    reset: () => {
      if (!busy) setPhase({ kind: "idle" });
    },
    ...progressOf(phase),
  };
}

/** The bar's percentage and its words: the bytes sent, then the chunks indexed. */
export function progressOf(phase: UploadPhase): { percent: number | null; progressText: string } {
  if (phase.kind === "sending") {
    const percent = Math.round(phase.fraction * 100);
    return { percent, progressText: `${percent}% sent` };
  }
  if (phase.kind === "indexing") return { percent: indexedPercent(phase), progressText: indexingText(phase.progress) };
  return { percent: null, progressText: "" };
}

export function counted(progress: IngestProgress | null): progress is Extract<IngestProgress, { phase: "indexing" }> {
  return progress?.phase === "indexing" && progress.chunksTotal > 0;
}

/** Sent counts as all of the bar until the server reports chunks; then the bar is the chunks indexed. */
function indexedPercent(phase: { progress: IngestProgress | null }): number {
  return counted(phase.progress) ? Math.round((phase.progress.chunksDone / phase.progress.chunksTotal) * 100) : 100;
}

function indexingText(progress: IngestProgress | null): string {
  if (!counted(progress)) return "Sent. Extracting and chunking…";
  const number = new Intl.NumberFormat();
  return `Sent. Indexing: ${number.format(progress.chunksDone)} of ${number.format(progress.chunksTotal)} chunks`;
}
