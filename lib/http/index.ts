import "server-only";

export { DEFAULT_BODY_LIMIT, parseBody, parseQuery } from "./body";
export { errorResponse, json, route } from "./route";
