import { redirect } from "next/navigation";
import { roleAtLeast } from "@/lib/access";
import { pageSession } from "@/lib/server";

/** Where a signed-in person starts: reviewers and admins in the review inbox, members with the experts. */
export default async function Home() {
  const result = await pageSession();
  redirect("session" in result && roleAtLeast(result.session.role, "reviewer") ? "/inbox" : "/experts");
}
