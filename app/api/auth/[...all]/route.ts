import { authMode, getLocalAuth } from "@/lib/auth";
import { NotFoundError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { boot } from "@/lib/server";

// better-auth's own endpoints (sign-in/email, sign-out, get-session) in local mode only.
async function handle(req: Request): Promise<Response> {
  if (authMode() !== "local") return errorResponse(new NotFoundError("Route"));
  try {
    await boot();
    return await (await getLocalAuth()).handler(req);
  } catch (error) {
    return errorResponse(error);
  }
}

export const GET = handle;
export const POST = handle;
