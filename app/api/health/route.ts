import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { health } from "@/lib/system";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(await health()));
