"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "@/components/ui/api";
import { fetchRun, type RunDetail, runKey, streamUrl } from "./api";

/** How long stream activity is gathered into one refetch of the run. */
const COALESCE_MS = 300;
/** A run waiting at a checkpoint streams nothing: a reviewer elsewhere may decide it, so look now and then. */
const WAITING_POLL_MS = 3_000;
/** While the stream is open it drives the refetches; this only covers a stream that went quiet. */
const RUNNING_POLL_MS = 10_000;

/** Calls `fn` once per window, at its end, however often it is asked within it. */
function useCoalesced(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  }, [ms]);
}

/**
 * A run as GET /api/runs/{id} answers it, kept current: while it works, its stream is followed
 * and every data part refetches the run (all state comes from that one answer, so a reload shows
 * the same). `reattach` follows the stream again after a decision or a steering message.
 */
export function useLiveRun(runId: string) {
  const queryClient = useQueryClient();
  const key = runKey(runId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchRun(runId),
    staleTime: 0,
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return status === "interrupted" ? WAITING_POLL_MS : status === "running" ? RUNNING_POLL_MS : false;
    },
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });
  const [attaching, setAttaching] = useState(false);
  const [generation, setGeneration] = useState(0);
  const lastSeq = useRef(0);
  lastSeq.current = query.data?.lastSeq ?? lastSeq.current;

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: runKey(runId) }), [queryClient, runId]);
  const refreshSoon = useCoalesced(() => void refresh(), COALESCE_MS);
  const streaming = query.data?.status === "running" || attaching;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` asks for a fresh subscription
  useEffect(() => {
    if (!streaming) return;
    const source = new EventSource(streamUrl(runId, lastSeq.current));
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const end = async () => {
      if (closed) return;
      closed = true;
      source.close();
      setAttaching(false);
      await refresh();
      // The stream ends when the run stops; one that ended while the run still works is followed again.
      const run = queryClient.getQueryData<RunDetail>(runKey(runId));
      if (run?.status === "running") retry = setTimeout(() => setGeneration((g) => g + 1), 1_000);
    };
    source.onmessage = (event: MessageEvent<string>) => {
      if (event.data === "[DONE]") return void end();
      if (/"type":"(data-|finish|error)/.test(event.data)) refreshSoon();
    };
    // A dropped connection is retried by EventSource itself (with Last-Event-ID); a refused one ends.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) void end();
    };
    return () => {
      closed = true;
      source.close();
      clearTimeout(retry);
    };
  }, [runId, streaming, generation, queryClient, refresh, refreshSoon]);

  const reattach = useCallback(() => {
    setAttaching(true);
    setGeneration((g) => g + 1);
    void refresh();
  }, [refresh]);

  return { ...query, reattach };
}
