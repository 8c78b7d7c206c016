// The console's frame: who may enter (staff with a grant, per GET /api/ops/me), the
// navigation, and who is signed in with what they may do.
import { Navigate, NavLink, Outlet, Link } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { useOpsMeQuery } from "@/features/staff/api/get-me";
import { OpsForbidden } from "@/features/staff/components/ops-forbidden";
import { RETRY_LABEL } from "@/features/staff/components/ops-states";
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
];

function navClass({ isActive }: { isActive: boolean }) {
  return isActive ? "ops-nav__link ops-nav__link--active" : "ops-nav__link";
}

function OpsFrame({ me }: { me: OpsMe }) {
  return (
    <OpsMeContext value={me}>
      <div className="ops-layout">
        <header className="ops-header">
          <Link to="/ops" className="ops-header__brand">
            Console de suporte
          </Link>
          <nav className="ops-nav" aria-label="Console">
            {NAV_LINKS.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.end} className={navClass}>
                {link.label}
              </NavLink>
            ))}
          </nav>
          <div className="ops-header__who">
            <span className="ops-header__name">{me.user.name}</span>
            <span className="ops-header__role">
              {ROLE_LABELS[me.role]} · {me.station ? me.station.name : "Todas as estações"}
            </span>
          </div>
          <Link to="/logout" className="ops-nav__link">
            Sair
          </Link>
        </header>
        {!me.can_act && (
          <p className="ops-note" role="note">
            {VIEWER_NOTE}
          </p>
        )}
        <main className="ops-main">
          <Outlet />
        </main>
      </div>
    </OpsMeContext>
  );
}

/** /ops and below: visitors go to /login, accounts without a staff grant get the 403 page. */
export function OpsLayout() {
  const session = useSession();
  const me = useOpsMeQuery({ enabled: session !== null });

  if (session === null) return <Navigate to="/login" replace />;
  if (me.isPending) return <LoadingPage />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 401) return <Navigate to="/login" replace />;
    if (me.error instanceof ApiError && me.error.status === 403) return <OpsForbidden />;
    return (
      <MessagePage title="Não foi possível abrir o console">
        <p>{toastForError(me.error).text}</p>
        <button type="button" className="button button--primary" onClick={() => void me.refetch()}>
          {RETRY_LABEL}
        </button>
      </MessagePage>
    );
  }
  return <OpsFrame me={me.data} />;
}
