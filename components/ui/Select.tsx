import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlClass } from "./Input";

/**
 * A styled native <select>: the phone's own picker, the browser's keyboard handling, and form
 * posts and Playwright's selectOption work as with any select.
 */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(controlClass, "pr-8", className)} {...props} />;
}
