"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";

/**
 * A panel that slides over the page on a small screen: the header's menu, the chat's
 * conversations and sources. Radix Dialog underneath, so focus is trapped while it is open,
 * Escape and a tap outside close it, and focus goes back to the button that opened it.
 */
export const Sheet = Dialog.Root;
export const SheetTrigger = Dialog.Trigger;
export const SheetClose = Dialog.Close;

const SIDES = {
  left: "inset-y-0 left-0 w-[min(20rem,88vw)] border-r motion-safe:data-[state=open]:animate-[sheet-in-left_180ms_ease-out] motion-safe:data-[state=closed]:animate-[sheet-out-left_140ms_ease-in]",
  right:
    "inset-y-0 right-0 w-[min(22rem,92vw)] border-l motion-safe:data-[state=open]:animate-[sheet-in-right_180ms_ease-out] motion-safe:data-[state=closed]:animate-[sheet-out-right_140ms_ease-in]",
} as const;

export function SheetContent({
  side = "right",
  title,
  children,
  className = "",
  ...props
}: {
  side?: keyof typeof SIDES;
  title: string;
  children: ReactNode;
  className?: string;
} & Omit<ComponentProps<typeof Dialog.Content>, "title" | "children" | "className">) {
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-950/40 motion-safe:data-[state=closed]:animate-[fade-out_140ms_ease-in] motion-safe:data-[state=open]:animate-[fade-in_180ms_ease-out]" />
      <Dialog.Content
        // The title names the sheet; there is no description for it to point at.
        aria-describedby={undefined}
        {...props}
        className={`fixed z-50 flex flex-col border-slate-200 bg-white shadow-xl outline-none dark:border-slate-800 dark:bg-slate-900 ${SIDES[side]} ${className}`}
      >
        <div className="flex min-h-14 shrink-0 items-center justify-between gap-2 border-b border-slate-200 px-4 dark:border-slate-800">
          <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
          <Dialog.Close
            aria-label="Close"
            className="rounded-md p-2 text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            <X aria-hidden className="size-5" />
          </Dialog.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-4">{children}</div>
      </Dialog.Content>
    </Dialog.Portal>
  );
}
