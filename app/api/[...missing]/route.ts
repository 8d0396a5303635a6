import { NotFoundError } from "@/lib/errors";
import { route } from "@/lib/server";

// Any /api path no route answers: a JSON 404 in the API's own shape, not the HTML page people get.
const missing = route(async (req: Request) => {
  throw new NotFoundError(`API route ${req.method} ${new URL(req.url).pathname}`);
});

export const GET = missing;
export const POST = missing;
export const PUT = missing;
export const PATCH = missing;
export const DELETE = missing;
