import type { ReactNode } from "react";
import { StationLogo } from "@/features/stations";
import "./sign-up-layout.css";

interface SignUpLayoutProps {
  title: string;
  /** Shown above the title, e.g. "Etapa 1 de 3". */
  eyebrow?: string;
  children: ReactNode;
}

/** The frame of the sign-up screens and wizards: the station's logo over a card. */
export function SignUpLayout({ title, eyebrow, children }: SignUpLayoutProps) {
  return (
    <div className="sign-up">
      <header className="sign-up__header">
        <StationLogo className="sign-up__logo" />
      </header>
      <main className="sign-up__main">
        <section className="sign-up__card">
          {eyebrow && <p className="sign-up__eyebrow">{eyebrow}</p>}
          <h1 className="sign-up__title">{title}</h1>
          {children}
        </section>
      </main>
    </div>
  );
}
