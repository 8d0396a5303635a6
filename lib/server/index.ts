// The composition root: the one place that wires the process together (DESIGN.md).
import "server-only";

export { type BootOptions, boot, startServer } from "./boot";
export { pageSession, route } from "./entry";
export { installShutdownHandler } from "./shutdown";
