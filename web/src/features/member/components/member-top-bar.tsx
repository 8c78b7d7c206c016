import { Link } from "react-router";
import { StationLogo } from "@/features/station/components/station-logo";

export function MemberTopBar() {
  return (
    <header className="member-top-bar">
      <Link to="/homepage" className="member-top-bar__home">
        <StationLogo className="member-top-bar__logo" />
      </Link>
      <nav aria-label="Conta">
        <Link to="/logout" className="member-top-bar__logout">
          Sair
        </Link>
      </nav>
    </header>
  );
}
