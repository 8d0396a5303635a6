import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

// Browsers ask for /favicon.ico where a page's head names no icon (a 404 rendered after the
// page began streaming, say): they get the site's SVG icon instead of a 404.
export const GET = route(async () => new Response(null, { status: 308, headers: { location: "/icon.svg" } }));
