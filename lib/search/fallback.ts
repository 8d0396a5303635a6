import { pubmedSearcher } from "./pubmed";
import type { FallbackResult, FallbackSearcher, SearchEnv } from "./types";
import { webSearcher } from "./web";

/** The fallback searchers this deployment has configured (none by default). */
export function configuredSearchers(env: SearchEnv = process.env): FallbackSearcher[] {
  return [pubmedSearcher(env), webSearcher(env)].filter((s): s is FallbackSearcher => s !== null);
}

/**
 * Asks every configured fallback searcher at once. A searcher that fails or times out is
 * reported in `failures` and contributes nothing; the others still count.
 */
export async function fallbackSearch(
  query: string,
  options: { env?: SearchEnv; limit?: number; signal?: AbortSignal; searchers?: FallbackSearcher[] } = {},
): Promise<FallbackResult> {
  const searchers = options.searchers ?? configuredSearchers(options.env);
  const q = query.trim();
  if (!q || searchers.length === 0) return { hits: [], searchers: searchers.map((s) => s.name), failures: [] };
  const limit = Math.min(Math.max(options.limit ?? 3, 1), 10);
  const settled = await Promise.allSettled(searchers.map((s) => s.search(q, { limit, signal: options.signal })));
  const result: FallbackResult = { hits: [], searchers: searchers.map((s) => s.name), failures: [] };
  settled.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") result.hits.push(...outcome.value);
    else result.failures.push({ searcher: searchers[i].name, error: reasonOf(outcome.reason) });
  });
  return result;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.name === "TimeoutError" ? "timed out" : error.message.slice(0, 200);
  return String(error).slice(0, 200);
}
