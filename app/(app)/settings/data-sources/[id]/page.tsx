import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { z } from "zod";
import { DataSourceDetail } from "@/components/settings/DataSourceDetail";
import { roleAtLeast } from "@/lib/access";
import { getDataSource } from "@/lib/datasources";
import { NotFoundError } from "@/lib/errors";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Data source" };

/**
 * One data source's SQL analyst settings: its join graph (tables, roles, relationships), the
 * manual overrides with the version history, and the domain and display registries per schema.
 * Admins only; anyone else gets the 403 page, and another tenant's source is not found.
 */
export default async function DataSourcePage({ params }: { params: Promise<{ id: string }> }) {
  const result = await pageSession();
  if ("problem" in result) return null;
  if (!roleAtLeast(result.session.role, "admin")) forbidden();
  const id = z.uuid().safeParse((await params).id);
  if (!id.success) notFound();
  const source = await getDataSource(result.session, id.data).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!source) notFound();
  return (
    <div className="min-w-0">
      <Link
        href="/settings/data-sources"
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"
      >
        <ArrowLeft className="size-4" aria-hidden /> Data sources
      </Link>
      <h1 className="break-words text-2xl font-semibold">{source.name}</h1>
      <p className="mb-6 break-all text-sm text-slate-600 dark:text-slate-400">
        <span className="font-mono">{source.target}</span> · schemas {source.allowedSchemas.join(", ")}
      </p>
      <DataSourceDetail sourceId={source.id} kind={source.kind} schemas={source.allowedSchemas} />
    </div>
  );
}
