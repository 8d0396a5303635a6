"use client";

import { BookOpenText } from "lucide-react";
import type { ComponentProps } from "react";
import { buttonVariants } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/Sheet";
import { SourcesPanel } from "./SourcesPanel";

/** Below `lg` the sources are not beside the conversation: true while the screen is that narrow. */
export function sourcesInSheet(): boolean {
  return window.matchMedia("(max-width: 1023.98px)").matches;
}

/**
 * The sources of an answer on a narrow screen: a button in the chat header (with how many there
 * are) opens them as a sheet; a citation badge opens it at the cited passage.
 */
export function SourcesSheet({
  open,
  onOpenChange,
  ...panel
}: { open: boolean; onOpenChange: (open: boolean) => void } & ComponentProps<typeof SourcesPanel>) {
  const count = panel.sources.length + panel.webSources.length;
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetTrigger
        aria-label={count > 0 ? `Sources (${count})` : "Sources"}
        className={cn(buttonVariants({ variant: "outline" }), "gap-1 p-2 lg:hidden")}
      >
        <BookOpenText aria-hidden className="size-4" />
        {count > 0 && (
          <span aria-hidden className="text-xs font-medium tabular-nums">
            {count}
          </span>
        )}
      </SheetTrigger>
      <SheetContent
        side="right"
        title="Sources"
        data-testid="sources-sheet"
        // An open passage takes the focus itself (its heading); otherwise the sheet's first control does.
        onOpenAutoFocus={(e) => {
          if (panel.selected) e.preventDefault();
        }}
      >
        <SourcesPanel {...panel} />
      </SheetContent>
    </Sheet>
  );
}
