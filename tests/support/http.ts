type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface Call {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** Calls a route handler the way Next.js does, with a real Request. */
export async function call(
  handler: unknown,
  init: {
    method?: string;
    path?: string;
    body?: unknown;
    rawBody?: BodyInit;
    headers?: Record<string, string | undefined>;
    params?: Record<string, string>;
  } = {},
): Promise<Call> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(init.headers ?? {})) if (v !== undefined) headers.set(k, v);
  let body: BodyInit | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers.set("content-type", "application/json");
  }
  const req = new Request(`http://localhost${init.path ?? "/"}`, { method: init.method ?? "GET", headers, body });
  const res = await (handler as Handler)(req, { params: Promise.resolve(init.params ?? {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieHeader(res: { headers: Headers }, previous = ""): string {
  const jar = new Map(
    previous
      .split(";")
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => [p.split("=")[0], p] as const),
  );
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const [name, value] = [pair.split("=")[0], pair.slice(pair.indexOf("=") + 1)];
    if (value === "" || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
