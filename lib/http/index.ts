export { DEFAULT_BODY_LIMIT, parseBody, parseQuery } from "./body";
export { AppError, errors, NotFoundError } from "./errors";
export { errorResponse, json, route } from "./route";
