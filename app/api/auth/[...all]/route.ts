import { NotFoundError } from "@/lib/errors";
import { route } from "@/lib/http";

// better-auth's HTTP endpoints stay unmounted: Vigil signs in and out through /api/session and
// reads sessions in process (lib/auth), and the rest (list-sessions with its raw session tokens,
// revoke-*, update-user, change-password, …) were never meant for this product's clients.
const notFound = route(async () => {
  throw new NotFoundError("Route");
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
