import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and while the browser hydrates, true after; a component mounted
 * later in the browser gets true on its first render (no second render, unlike a mount effect).
 * A control whose click needs JavaScript stays disabled until then rather than swallowing a click
 * made before its handler exists; data from a query cache shared with the app shell (the nav's
 * counts) waits for it, so hydration sees what the server rendered.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
