export { configuredEngine, type EngineName } from "./provider-config";
