// /suporte and /suporte-enterprise (public; the blocked-account notice links to /suporte):
// the station's contact form in a frame of its own. /homepage/support is the same form
// inside the member area (member-support-page.tsx).
import { Link, useLocation } from "react-router";
import { StationLogo } from "@/features/stations";
import { SupportForm, type SupportVariant } from "@/features/support/components/support-form";
import "./support.css";

export const SUPPORT_TITLE = "Fale conosco";
export const ENTERPRISE_TITLE = "Plano Enterprise";

const INTRO: Record<SupportVariant, string> = {
  contact: "Envie sua dúvida, sugestão ou problema. Responderemos no e-mail informado.",
  enterprise: "Conte para nós o que a sua organização precisa e entraremos em contato.",
};

function PublicSupportPage({ variant }: { variant: SupportVariant }) {
  return (
    <main className="support-page">
      <section className="support-page__card">
        <StationLogo />
        <h1 className="support-page__title">{variant === "enterprise" ? ENTERPRISE_TITLE : SUPPORT_TITLE}</h1>
        <p>{INTRO[variant]}</p>
        <SupportForm variant={variant} />
        <Link to="/">Voltar</Link>
      </section>
    </main>
  );
}

/** The path that shows the enterprise variant. */
export const ENTERPRISE_PATH = "/suporte-enterprise";

/** /suporte, or /suporte-enterprise with its fixed subject. */
export function SupportPage() {
  const { pathname } = useLocation();
  return <PublicSupportPage variant={pathname.replace(/\/+$/, "") === ENTERPRISE_PATH ? "enterprise" : "contact"} />;
}

/** /homepage/support, inside the member area's frame. */
export function MemberSupportPage() {
  return (
    <section className="support-page__card">
      <h1 className="page-title">{SUPPORT_TITLE}</h1>
      <p>{INTRO.contact}</p>
      <SupportForm />
    </section>
  );
}
