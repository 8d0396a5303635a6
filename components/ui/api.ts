/** Browser-side fetch for our JSON API: throws the server's error message, not a status code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export async function apiFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(url, { ...init, headers, credentials: "same-origin" });
  const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string; details?: unknown };
  if (!res.ok)
    throw new ApiError(
      res.status,
      body.code ?? "HTTP_ERROR",
      body.message ?? `Request failed (${res.status}).`,
      body.details,
    );
  return body as T;
}
