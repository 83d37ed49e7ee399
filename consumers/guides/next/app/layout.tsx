import type { Metadata } from "next";
import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import "./globals.css";

// Geist from npm, not from Google: nothing waits on the network, in `next dev` or `next build`.
export const metadata: Metadata = {
  title: "Python tutor",
  description: "A tutor that runs Python to answer: real output, plots and files.",
};

export default function RootLayout({ children }: LayoutProps<"/">) {
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable} h-full antialiased`}>
      <body className="min-h-full flex flex-col">{children}</body>
    </html>
  );
}
