// The composition root: the one place that wires the process together (DESIGN.md).
export { type BootOptions, boot } from "./boot";
export { pageSession, route } from "./entry";
