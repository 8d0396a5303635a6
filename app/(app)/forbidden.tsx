import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/EmptyState";

export const metadata: Metadata = { title: "Not available for your role" };

/** What `forbidden()` renders inside the app shell, with a 403 status. */
export default function Forbidden() {
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold">Not available for your role</h1>
      <EmptyState title="Your role cannot open this page">
        It needs a role you do not have in this workspace. The navigation above lists every page you can open;{" "}
        <Link href="/" className="font-medium text-brand-700 underline dark:text-brand-100">
          start from your home page
        </Link>
        .
      </EmptyState>
    </>
  );
}
