import "server-only";

export { DEFAULT_BODY_LIMIT, parseBody, parseFormFields, parseQuery } from "./body";
export { withKeepAlive } from "./keep-alive";
export { answerImageSources, contentSecurityPolicy } from "./page-policy";
export { errorResponse, json, route } from "./route";
export { hardenForHttps } from "./transport-security";
export { unstorableText } from "./unstorable-text";
export { refuseMalformedUrl } from "./url-text";
