"use client";

import { useEffect, useState } from "react";

/**
 * False in the server's HTML and the first client render, true once React has hydrated the
 * component: a control whose click needs JavaScript stays disabled until then, rather than
 * swallowing a click made before its handler exists.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
