import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/EmptyState";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold">Page not found</h1>
      <EmptyState title="There is no page at this address">
        It may have moved, or the link may be mistyped. The navigation above lists every page your role can open;{" "}
        <Link href="/" className="font-medium text-brand-700 underline dark:text-brand-100">
          start from your home page
        </Link>
        .
      </EmptyState>
    </>
  );
}
