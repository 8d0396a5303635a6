export { type Health, health } from "./health";
