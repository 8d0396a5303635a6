import { redirect } from "next/navigation";
import { pageSession } from "@/lib/server";

const LANDING = { admin: "/audit", reviewer: "/inbox", member: "/experts" } as const;

/** Where a signed-in person starts: where their work is (admins the audit, reviewers the inbox). */
export default async function Home() {
  const result = await pageSession();
  redirect("session" in result ? LANDING[result.session.role] : "/experts");
}
