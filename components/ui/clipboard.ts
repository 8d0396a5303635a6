import { toast } from "sonner";

/** Copies text for the person and says whether it worked (`copied` names what, e.g. "Answer copied"). */
export function copyText(text: string, copied: string): void {
  navigator.clipboard
    .writeText(text)
    .then(() => toast.success(copied))
    .catch(() => toast.error("Could not copy to the clipboard; select the text and copy it."));
}
