import { cache } from "react";
import { pageSession as sessionOfPage } from "@/lib/auth";
import { route as errorShapedRoute } from "@/lib/http";
import { boot } from "./boot";
import { refuseNulCharacters } from "./nul-characters";

type Handler<C> = (req: Request, context: C) => Promise<Response>;

/**
 * A route handler that runs only once the process is booted, refuses a path or query with a
 * NUL character, and turns every thrown error into the documented error shape.
 */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return errorShapedRoute(async (req, context) => {
    await boot();
    await refuseNulCharacters(req, context);
    return handler(req, context);
  });
}

/** The session of a page request, once the process is booted (see lib/auth's pageSession). */
export const pageSession = cache(async () => {
  await boot();
  return sessionOfPage();
});
