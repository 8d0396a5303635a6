import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AnswerImageSources } from "@/components/chat/AnswerMarkdown";
import { Providers } from "@/components/ui/Providers";
import { answerImageSources } from "@/lib/http";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Vigil", template: "%s · Vigil" },
  description: "Consult specialised AI experts, approve what they do, audit everything.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's CSP nonce (set by proxy.ts), for the inline script that applies the theme.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers nonce={nonce}>
          <AnswerImageSources sources={answerImageSources()}>{children}</AnswerImageSources>
        </Providers>
      </body>
    </html>
  );
}
