import { config, type Env } from "@/lib/config";
/** The timeout of one fallback search request, from `VIGIL_FALLBACK_TIMEOUT_MS` (default 5 s). */
export function fallbackTimeoutMs(env: Env): number {
  return config(env).fallbackTimeoutMs;
}

/** GETs a JSON document, refusing non-2xx answers and anything slower than `timeoutMs`. */
export async function getJson(
  url: string,
  options: { timeoutMs: number; signal?: AbortSignal; headers?: Record<string, string> },
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const init = { headers: { accept: "application/json", ...options.headers }, signal };
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (error) {
    // A kept-alive connection the server closed as it was reused fails before anything was
    // sent or answered; a GET is safe to send once more on a fresh one.
    if (signal.aborted || !isStaleConnection(error)) throw error;
    res = await fetch(url, init);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${res.status} from ${new URL(url).host}`);
  }
  return res.json();
}

export function clip(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

/** Whether a fetch failed because its reused connection was already closed by the server. */
function isStaleConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return (
    cause?.code === "ECONNRESET" ||
    cause?.code === "UND_ERR_SOCKET" ||
    cause?.code === "EPIPE" ||
    /other side closed/i.test(cause?.message ?? "")
  );
}
