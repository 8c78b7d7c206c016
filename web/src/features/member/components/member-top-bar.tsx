import { useCallback, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { MemberDrawer } from "@/features/member/components/member-drawer";
import { memberMenu, PROFILE_LINK, showsProfileMenuLink } from "@/features/member/components/member-menu";
import { MemberSearch } from "@/features/member/components/member-search";
import { StationLogo, useStation } from "@/features/stations";
import { HeaderBalance, STATEMENT_PATH } from "@/features/wallet";

export function MemberTopBar({ showBalance }: { showBalance: boolean }) {
  const station = useStation();
  const drawerId = useId();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const linksToStatement = memberMenu(station).account?.some((link) => link.to === STATEMENT_PATH) ?? false;

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    menuButton.current?.focus();
  }, []);

  return (
    <header className="member-top-bar">
      <button
        ref={menuButton}
        type="button"
        className="member-top-bar__menu-button"
        aria-label="Menu"
        aria-expanded={drawerOpen}
        aria-controls={drawerOpen ? drawerId : undefined}
        onClick={() => setDrawerOpen((open) => !open)}
      >
        <span className="member-top-bar__menu-icon" aria-hidden="true" />
      </button>
      <Link to="/homepage" className="member-top-bar__home">
        <StationLogo className="member-top-bar__logo" />
      </Link>
      <MemberSearch />
      {showBalance && <HeaderBalance linksToStatement={linksToStatement} className="member-top-bar__balance" />}
      <nav aria-label="Conta" className="member-top-bar__account">
        {showsProfileMenuLink(station) && (
          <Link to={PROFILE_LINK.to} className="member-top-bar__account-link">
            {PROFILE_LINK.label}
          </Link>
        )}
        <Link to="/logout" className="member-top-bar__account-link">
          Sair
        </Link>
      </nav>
      {drawerOpen && <MemberDrawer id={drawerId} onClose={closeDrawer} />}
    </header>
  );
}
