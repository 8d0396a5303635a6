import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/ui/Providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Vigil", template: "%s · Vigil" },
  description: "Consult specialised AI experts, approve what they do, audit everything.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
