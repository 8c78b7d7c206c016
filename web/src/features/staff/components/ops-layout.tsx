// The console's frame: who may enter (staff with a grant, per GET /api/ops/me; staff with
// only a desk grant, per GET /api/ops/desk/me, to the desk pages alone), the navigation, and
// who is signed in with what they may do.
import type { ReactNode } from "react";
import { Navigate, NavLink, Outlet, Link, useLocation } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { useDeskMe } from "@/features/staff/api/desk";
import { useOpsMeQuery } from "@/features/staff/api/get-me";
import { OpsForbidden } from "@/features/staff/components/ops-forbidden";
import { RETRY_LABEL } from "@/features/staff/components/ops-states";
import { DESKS_LABEL, DESKS_PATH } from "@/features/staff/desk-labels";
import { OpsMeContext } from "@/features/staff/ops-context";
import { useSession } from "@/features/session";
import { ApiError, toastForError } from "@/lib/api-client";
import type { OpsMe, StaffRole } from "@/types/api";
import "./ops.css";

export const VIEWER_NOTE =
  "Seu perfil permite apenas consultar: reexecutar, cancelar, pausar filas, liberar cashback, moderar denúncias, cobrar assinaturas, decidir recargas e responder mensagens ficam indisponíveis.";

const ROLE_LABELS: Record<StaffRole, string> = { support: "Suporte", viewer: "Consulta" };

const NAV_LINKS = [
  { to: "/ops", label: "Visão geral", end: true },
  { to: "/ops/tarefas", label: "Tarefas", end: false },
  { to: "/ops/denuncias", label: "Denúncias", end: false },
  { to: "/ops/assinaturas", label: "Assinaturas", end: false },
  { to: "/ops/recargas", label: "Recargas", end: false },
  { to: "/ops/suporte", label: "Suporte", end: false },
  { to: "/ops/auditoria", label: "Auditoria", end: false },
  { to: DESKS_PATH, label: DESKS_LABEL, end: false },
];

/** A desk-only staff member's console: the desks and nothing else. */
const DESK_ONLY_LINKS = [{ to: DESKS_PATH, label: DESKS_LABEL, end: false }];

function navClass({ isActive }: { isActive: boolean }) {
  return isActive ? "ops-nav__link ops-nav__link--active" : "ops-nav__link";
}

interface ConsoleFrameProps {
  links: ReadonlyArray<{ to: string; label: string; end: boolean }>;
  name: string;
  scope: string;
  note?: ReactNode;
  children: ReactNode;
}

function ConsoleFrame({ links, name, scope, note, children }: ConsoleFrameProps) {
  return (
    <div className="ops-layout">
      <header className="ops-header">
        <Link to={links[0]?.to ?? "/ops"} className="ops-header__brand">
          Console de suporte
        </Link>
        <nav className="ops-nav" aria-label="Console">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.end} className={navClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ops-header__who">
          <span className="ops-header__name">{name}</span>
          <span className="ops-header__role">{scope}</span>
        </div>
        <Link to="/logout" className="ops-nav__link">
          Sair
        </Link>
      </header>
      {note}
      <main className="ops-main">{children}</main>
    </div>
  );
}

function OpsFrame({ me }: { me: OpsMe }) {
  return (
    <OpsMeContext value={me}>
      <ConsoleFrame
        links={NAV_LINKS}
        name={me.user.name}
        scope={`${ROLE_LABELS[me.role]} · ${me.station ? me.station.name : "Todas as estações"}`}
        note={
          !me.can_act && (
            <p className="ops-note" role="note">
              {VIEWER_NOTE}
            </p>
          )
        }
      >
        <Outlet />
      </ConsoleFrame>
    </OpsMeContext>
  );
}

/**
 * Staff whose only grant is a desk's (no console grant: /api/ops/me answers 403) open the
 * desk pages; the console's own pages stay closed to them, its front page leads to the desks.
 */
function DeskOnlyConsole() {
  const deskMe = useDeskMe();
  const { pathname } = useLocation();

  if (deskMe.isPending) return <LoadingPage />;
  if (deskMe.isError) {
    if (deskMe.error instanceof ApiError && deskMe.error.status === 401) return <Navigate to="/login" replace />;
    if (deskMe.error instanceof ApiError && deskMe.error.status === 403) return <OpsForbidden />;
    return <OpenFailed error={deskMe.error} retry={() => void deskMe.refetch()} />;
  }
  if (deskMe.data.desks.length === 0) return <OpsForbidden />;
  const onDesks = pathname === DESKS_PATH || pathname.startsWith(`${DESKS_PATH}/`);
  if (!onDesks) {
    if (pathname === "/ops" || pathname === "/ops/") return <Navigate to={DESKS_PATH} replace />;
    return <OpsForbidden />;
  }
  return (
    <ConsoleFrame links={DESK_ONLY_LINKS} name={deskMe.data.user.name} scope={DESKS_LABEL}>
      <Outlet />
    </ConsoleFrame>
  );
}

function OpenFailed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <MessagePage title="Não foi possível abrir o console">
      <p>{toastForError(error).text}</p>
      <button type="button" className="button button--primary" onClick={retry}>
        {RETRY_LABEL}
      </button>
    </MessagePage>
  );
}

/**
 * /ops and below: visitors go to /login, desk-only staff to their desks, accounts without
 * any staff grant get the 403 page.
 */
export function OpsLayout() {
  const session = useSession();
  const me = useOpsMeQuery({ enabled: session !== null });

  if (session === null) return <Navigate to="/login" replace />;
  if (me.isPending) return <LoadingPage />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 401) return <Navigate to="/login" replace />;
    if (me.error instanceof ApiError && me.error.status === 403) return <DeskOnlyConsole />;
    return <OpenFailed error={me.error} retry={() => void me.refetch()} />;
  }
  return <OpsFrame me={me.data} />;
}
