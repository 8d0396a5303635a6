import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and while the browser hydrates, true after. A query cache shared
 * with the app shell (the nav's counts) can fill before a streamed Suspense boundary hydrates;
 * whatever shows such data waits for this, so hydration sees what the server rendered.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
