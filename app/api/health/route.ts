import { json, route } from "@/lib/http";
import { health } from "@/lib/system";

export const dynamic = "force-dynamic";

export const GET = route(async () => json(await health()));
