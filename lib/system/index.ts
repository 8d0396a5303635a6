import "server-only";

export { health } from "./health";
