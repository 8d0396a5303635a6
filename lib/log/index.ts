// Structured JSON logs with the request, run and tenant a line belongs to.
import "server-only";

export { addLogContext, captureLogs, createLogger, type LogContext, logger, withLogContext } from "./logger";
