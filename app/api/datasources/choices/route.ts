import { requireSession } from "@/lib/auth";
import { dataSourceChoices } from "@/lib/datasources";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

/**
 * The sources any member may pick for the Data Analyst (enabled ones, oldest first), with the
 * tenant's default marked; no targets or test results, which stay with admins.
 */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const items = await dataSourceChoices(session);
  return json({ status: "success", count: items.length, items });
});
