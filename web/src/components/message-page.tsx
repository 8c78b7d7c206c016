import type { ReactNode } from "react";
import "./message-page.css";

interface MessagePageProps {
  title: string;
  children?: ReactNode;
}

/** A centred card with a heading and a short message, for errors and notices. */
export function MessagePage({ title, children }: MessagePageProps) {
  return (
    <main className="message-page">
      <section className="message-page__card">
        <h1 className="message-page__title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
