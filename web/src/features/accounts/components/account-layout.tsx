import type { ReactNode } from "react";
import { StationLogo } from "@/features/stations";
import "./account.css";

interface AccountLayoutProps {
  title: string;
  children: ReactNode;
}

/** The frame of the account screens: the station's logo over a card with the heading. */
export function AccountLayout({ title, children }: AccountLayoutProps) {
  return (
    <main className="account-page">
      <section className="account-card">
        <StationLogo className="account-card__logo" />
        <h1 className="account-card__title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
