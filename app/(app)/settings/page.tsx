import { redirect } from "next/navigation";

/** Settings has no page of its own: its first section. */
export default function SettingsPage() {
  redirect("/settings/api-keys");
}
