import { z } from "zod";
import { errors } from "@/lib/errors";

const Id = z.uuid();

/** The route's `{id}`, refused as bad input (not a database error) when it is not a UUID. */
export async function sourceId(params: Promise<{ id: string }>): Promise<string> {
  const id = Id.safeParse((await params).id);
  if (!id.success) throw errors.validation(id.error.issues);
  return id.data;
}
