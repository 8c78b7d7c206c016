// The landing's support form section (type 8). The form is the support feature's
// (web/src/features/support, being built on another branch); until it is here, the section
// leads to /suporte.
// TODO(lead, at merge): render the support feature's form here, imported lazily (its own
// chunk, loaded near the viewport like the plans), e.g.
//   const SupportForm = lazy(async () => ({ default: (await import("@/features/support")).SupportForm }));
import { Link } from "react-router";

export const CONTACT_US_TEXT = "Fale conosco";

export function LandingSupportSection() {
  return (
    <p className="landing-section__actions">
      <Link className="button button--primary" to="/suporte">
        {CONTACT_US_TEXT}
      </Link>
    </p>
  );
}
