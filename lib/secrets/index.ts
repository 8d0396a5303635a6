import "server-only";

export { keptSecret } from "./kept";
export { assertServerSecrets } from "./required";
