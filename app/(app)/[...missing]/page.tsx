import { notFound } from "next/navigation";

// A path no page answers still renders inside the app shell (navigation, account, sign-out):
// this catch-all lets the group's layout wrap it before the not-found page takes over.
export default function MissingPage() {
  notFound();
}
