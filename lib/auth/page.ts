import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { DomainError } from "@/lib/errors";
import { getSession } from "./session";
import type { Session } from "./types";

export type PageSession = { session: Session } | { problem: string };

/** The session of a page request (looked up once per request); no session sends the person to sign in. */
export const pageSession = cache(async (): Promise<PageSession> => {
  try {
    const session = await getSession(await headers());
    if (!session) redirect("/sign-in");
    return { session };
  } catch (error) {
    if (error instanceof DomainError) return { problem: error.message };
    throw error;
  }
});
