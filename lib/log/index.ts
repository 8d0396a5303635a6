// Structured JSON logs with the request, run and tenant a line belongs to.
import "server-only";

export { addLogContext, captureLogs, logger, withLogContext } from "./logger";
