import { useEffect, useId, useRef } from "react";
import { Link } from "react-router";
import { memberMenu, type MenuLink } from "@/features/member/components/member-menu";
import { useStation } from "@/features/stations";

function MenuLinks({ links, onNavigate }: { links: MenuLink[]; onNavigate: () => void }) {
  return (
    <ul className="member-drawer__list">
      {links.map((link) => (
        <li key={link.to}>
          {link.external ? (
            <a
              className="member-drawer__link"
              href={link.to}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${link.label} (abre em nova aba)`}
              onClick={onNavigate}
            >
              {link.label}
            </a>
          ) : (
            <Link className="member-drawer__link" to={link.to} onClick={onNavigate}>
              {link.label}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

interface MemberDrawerProps {
  id: string;
  onClose: () => void;
}

/** The side menu: entries by station flags; Escape, the backdrop, "Fechar menu" and any link close it. */
export function MemberDrawer({ id, onClose }: MemberDrawerProps) {
  const menu = memberMenu(useStation());
  const accountTitleId = useId();
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [onClose]);

  return (
    <>
      <div className="member-drawer__backdrop" data-testid="member-drawer-backdrop" onClick={onClose} />
      <nav id={id} className="member-drawer" aria-label="Menu principal">
        <button ref={closeButton} type="button" className="member-drawer__close" onClick={onClose}>
          Fechar menu
        </button>
        <MenuLinks links={menu.main} onNavigate={onClose} />
        {menu.account && (
          <section aria-labelledby={accountTitleId}>
            <h2 id={accountTitleId} className="member-drawer__group-title">
              Minha conta
            </h2>
            <MenuLinks links={menu.account} onNavigate={onClose} />
          </section>
        )}
      </nav>
    </>
  );
}
