/** A route handler as Next.js calls it. */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * Calls a route handler in-process with an API key, as a client over HTTP would: a GET without a
 * body, a JSON POST with one. The benchmarks measure the product's own handlers this way.
 */
export async function callRoute(
  handler: unknown,
  url: string,
  key: string,
  body?: unknown,
  params: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const req = new Request(`http://localhost${url}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await (handler as Handler)(req, { params: Promise.resolve(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
