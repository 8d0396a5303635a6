"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil, Search, Trash2, X } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { AgentIcon } from "@/components/ui/AgentIcon";
import { Button, buttonVariants } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/Input";
import { type ChatSessionListItem, SESSION_SEARCH_MAX_CHARS } from "@/lib/chat/contract";
import { deleteSession, fetchSessions, renameSession, SESSIONS_KEY, sessionSearchKey } from "./api";
import { useNow } from "./MessageTime";
import { useConversationRegistry } from "./registry";
import { fullTimestamp, groupByActivity, messageTimeLabel } from "./when";

function SessionRow({ session, active, now }: { session: ChatSessionListItem; active: boolean; now: Date }) {
  const queryClient = useQueryClient();
  const registry = useConversationRegistry();
  const router = useRouter();
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [title, setTitle] = useState(session.title);

  const rename = useMutation({
    mutationFn: (next: string) => renameSession(session.id, next),
    onSuccess: () => {
      setMode("view");
      void queryClient.invalidateQueries({ queryKey: ["chat"] });
    },
    onError: (e) => toast.error(e.message),
  });
  const remove = useMutation({
    mutationFn: () => deleteSession(session.id),
    onSuccess: () => {
      registry.forget(session.id);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      toast.success("Conversation deleted");
      if (active) router.replace("/chat");
    },
    onError: (e) => {
      setMode("view");
      toast.error(e.message);
    },
  });

  if (mode === "rename") {
    const save = (e: FormEvent) => {
      e.preventDefault();
      const next = title.trim();
      if (!next || next === session.title) return setMode("view");
      rename.mutate(next);
    };
    return (
      <li>
        <form onSubmit={save} className="flex gap-1 p-1">
          <label htmlFor={`rename-${session.id}`} className="sr-only">
            Conversation title
          </label>
          <Input
            id={`rename-${session.id}`}
            // Focus moves into the title: the person just asked to rename it.
            autoFocus
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                setTitle(session.title);
                setMode("view");
              }
            }}
            className="min-w-0 flex-1 rounded px-2 py-1"
          />
          <Button type="submit" variant="link" size="xs" disabled={rename.isPending}>
            Save
          </Button>
        </form>
      </li>
    );
  }

  const displayTitle = session.title || "Untitled conversation";
  return (
    <li data-testid="session-item" className="group relative">
      <Link
        href={`/chat/${session.id}`}
        aria-current={active ? "page" : undefined}
        className={`block rounded-md px-2 py-2 pr-14 text-sm ${
          active ? "bg-brand-50 dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-800/60"
        }`}
      >
        <span className="flex min-w-0 items-start gap-1.5">
          <AgentIcon avatar={session.agent.avatar} size="sm" />
          {/* Two lines before it is cut: one line of a 15rem column held about 18 characters. */}
          <span
            data-testid="session-title"
            title={displayTitle}
            className="line-clamp-2 min-w-0 break-words font-medium"
          >
            {displayTitle}
          </span>
        </span>
        <span className="mt-0.5 flex min-w-0 gap-1 text-xs text-slate-500 dark:text-slate-400">
          <span className="min-w-0 truncate">
            {session.lastMessagePreview?.replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, "") || session.agent.name}
          </span>
          <span aria-hidden>·</span>
          <time dateTime={session.updatedAt} title={fullTimestamp(session.updatedAt)} className="shrink-0">
            {messageTimeLabel(session.updatedAt, now)}
          </time>
        </span>
      </Link>
      {mode === "confirm-delete" ? (
        <fieldset
          aria-label="Confirm deletion"
          className="absolute inset-0 m-0 flex items-center justify-end gap-1 rounded-md border-0 bg-red-50 px-2 text-xs dark:bg-red-950"
        >
          <span className="mr-auto text-red-800 dark:text-red-200">Delete this conversation?</span>
          <Button variant="destructive" size="xs" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Delete
          </Button>
          <Button
            variant="ghost"
            size="xs"
            className="font-normal hover:bg-red-100 dark:hover:bg-red-900"
            onClick={() => setMode("view")}
          >
            Cancel
          </Button>
        </fieldset>
      ) : (
        <span className="absolute top-1.5 right-1 flex opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100">
          <Button
            variant="ghost"
            size="inline"
            aria-label={`Rename “${session.title}”`}
            title="Rename"
            onClick={() => {
              setTitle(session.title);
              setMode("rename");
            }}
            className="rounded p-1 text-slate-500 hover:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-700"
          >
            <Pencil aria-hidden className="h-3.5 w-3.5" />
          </Button>
          <Button
            variant="ghost"
            size="inline"
            aria-label={`Delete “${session.title}”`}
            title="Delete"
            onClick={() => setMode("confirm-delete")}
            className="rounded p-1 text-slate-500 hover:bg-slate-200 hover:text-red-600 dark:text-slate-400 dark:hover:bg-slate-700 dark:hover:text-red-600"
          >
            <Trash2 aria-hidden className="h-3.5 w-3.5" />
          </Button>
        </span>
      )}
    </li>
  );
}

/** Waits until the typing pauses, so a search is asked once per word, not once per key. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function SessionSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="relative px-1">
      <label htmlFor={id} className="sr-only">
        Search conversations
      </label>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 h-3.5 w-3.5 -translate-y-1/2 text-slate-400"
      />
      <Input
        id={id}
        type="search"
        value={value}
        maxLength={SESSION_SEARCH_MAX_CHARS}
        placeholder="Search conversations"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && value) {
            e.preventDefault();
            onChange("");
          }
        }}
        className="w-full py-1.5 pr-7 pl-7 [&::-webkit-search-cancel-button]:hidden"
      />
      {value && (
        <Button
          variant="ghost"
          size="inline"
          aria-label="Clear the search"
          onClick={() => onChange("")}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-0.5 text-slate-500 dark:text-slate-400"
        >
          <X aria-hidden className="h-3.5 w-3.5" />
        </Button>
      )}
    </div>
  );
}

/**
 * The person's conversations by last activity (Today, Yesterday, …): open, rename, delete, start
 * a new one, or search their titles (on the server, so older pages are searched too).
 */
export function SessionSidebar() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const activeId = pathname.startsWith("/chat/") ? decodeURIComponent(pathname.slice("/chat/".length)) : null;
  const [search, setSearch] = useState("");
  const q = useDeferredValue(useSettled(search.trim()));
  const now = useNow();
  const { data, error, isPending, isFetching, fetchNextPage, hasNextPage, isFetchingNextPage, refetch } =
    useInfiniteQuery({
      queryKey: sessionSearchKey(q),
      queryFn: ({ pageParam }) => fetchSessions(pageParam, q),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      // While a new search loads, the previous list stays instead of a skeleton.
      placeholderData: (previous) => previous,
    });
  const sessions = data?.pages.flatMap((p) => p.items) ?? [];
  const current = sessions.find((s) => s.id === activeId);
  // The open conversation missing from a settled list (a refresh lost a race with its creation):
  // ask once more for that conversation, so the list never lacks the one on screen for long.
  const rechecked = useRef(new Set<string>());
  const missing = Boolean(!q && activeId && activeId !== "new" && data && !current && !isFetching);
  useEffect(() => {
    if (!missing || !activeId || rechecked.current.has(activeId)) return;
    rechecked.current.add(activeId);
    void refetch();
  }, [missing, activeId, refetch]);
  const agentSlug = activeId === "new" ? searchParams.get("agent") : current?.agent.slug;
  const newHref = agentSlug ? `/chat/new?agent=${encodeURIComponent(agentSlug)}` : "/experts";

  return (
    <nav aria-label="Conversations" className="flex min-h-0 flex-col gap-2">
      <Link href={newHref} className={cn(buttonVariants(), "px-3")}>
        + New chat
      </Link>
      <Link href="/experts" className="text-center text-xs text-slate-500 hover:underline dark:text-slate-400">
        or pick another expert
      </Link>
      <h2 className="mt-2 px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        Conversations
      </h2>
      <SessionSearch value={search} onChange={setSearch} />
      <div className="min-h-0 flex-1 overflow-y-auto" aria-busy={isFetching && !isFetchingNextPage}>
        {error ? (
          <p role="alert" className="px-2 text-xs text-red-600">
            Could not load conversations: {error.message}
          </p>
        ) : isPending ? (
          <ul className="space-y-2 px-2" aria-hidden>
            {[0, 1, 2].map((i) => (
              <li key={i} className="h-10 animate-pulse rounded-md bg-slate-200 dark:bg-slate-800" />
            ))}
          </ul>
        ) : sessions.length === 0 ? (
          <p role="status" data-testid="session-list-empty" className="px-2 text-xs text-slate-500 dark:text-slate-400">
            {q ? `No conversation title matches “${q}”.` : "No conversations yet."}
          </p>
        ) : (
          <div data-testid="session-list" className="space-y-3">
            {groupByActivity(sessions, now).map(({ group, items }) => (
              <section key={group} aria-label={group} data-testid="session-group">
                <h3 className="px-2 pb-0.5 text-[11px] font-medium text-slate-500 dark:text-slate-400">{group}</h3>
                <ul className="space-y-0.5">
                  {items.map((s) => (
                    <SessionRow key={s.id} session={s} active={s.id === activeId} now={now} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
        {hasNextPage && (
          <Button
            variant="ghost"
            size="xs"
            className="mt-2 w-full font-normal text-slate-500 dark:text-slate-400"
            onClick={() => void fetchNextPage()}
            disabled={isFetchingNextPage}
          >
            {isFetchingNextPage ? "Loading…" : "Older conversations"}
          </Button>
        )}
      </div>
    </nav>
  );
}
