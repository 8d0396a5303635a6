import { cache } from "react";
import { pageSession as sessionOfPage } from "@/lib/auth";
import { route as errorShapedRoute } from "@/lib/http";
import { boot } from "./boot";

type Handler<C> = (req: Request, context: C) => Promise<Response>;

/**
 * A route handler that runs only once the process is booted, with lib/http's request checks and
 * every thrown error turned into the documented error shape.
 */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return errorShapedRoute(async (req, context) => {
    await boot();
    return handler(req, context);
  });
}

/** The session of a page request, once the process is booted (see lib/auth's pageSession). */
export const pageSession = cache(async () => {
  await boot();
  return sessionOfPage();
});
