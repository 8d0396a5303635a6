import { forbidden } from "next/navigation";
import { roleAtLeast } from "@/lib/access";
import type { Session } from "@/lib/auth";
import { pageSession } from "@/lib/server";

/** The admin viewing an audit page; anyone else gets the 403 page (null: the layout explains). */
export async function adminPageSession(): Promise<Session | null> {
  const result = await pageSession();
  if ("problem" in result) return null;
  if (!roleAtLeast(result.session.role, "admin")) forbidden();
  return result.session;
}
