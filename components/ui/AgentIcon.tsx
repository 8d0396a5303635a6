import {
  Bot,
  Database,
  FlaskConical,
  LockKeyhole,
  type LucideIcon,
  Scale,
  Search,
  ShieldCheck,
  TrendingUp,
  Wrench,
} from "lucide-react";

// An agent's `avatar` names one of these icons. Emoji drew empty boxes on machines without an
// emoji font; agents saved with the emoji the first seed used still get their icon.
const ICONS: Record<string, LucideIcon> = {
  scale: Scale,
  "flask-conical": FlaskConical,
  "trending-up": TrendingUp,
  "shield-check": ShieldCheck,
  database: Database,
  search: Search,
  wrench: Wrench,
  lock: LockKeyhole,
  bot: Bot,
};

const FROM_EMOJI: Record<string, string> = {
  "⚖️": "scale",
  "🧪": "flask-conical",
  "📈": "trending-up",
  "🛡️": "shield-check",
  "🗄️": "database",
  "🔎": "search",
  "🔧": "wrench",
  "🔐": "lock",
};

const SIZES = {
  sm: { box: "h-5 w-5 rounded", icon: "h-3.5 w-3.5" },
  md: { box: "h-10 w-10 rounded-lg", icon: "h-5 w-5" },
  lg: { box: "h-14 w-14 rounded-xl", icon: "h-7 w-7" },
};

export function AgentIcon({ avatar, size = "md" }: { avatar: string; size?: keyof typeof SIZES }) {
  const Icon = ICONS[avatar] ?? ICONS[FROM_EMOJI[avatar] ?? ""] ?? Bot;
  const s = SIZES[size];
  return (
    <span
      aria-hidden
      data-testid="agent-icon"
      className={`inline-flex shrink-0 items-center justify-center bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100 ${s.box}`}
    >
      <Icon className={s.icon} strokeWidth={2} />
    </span>
  );
}
