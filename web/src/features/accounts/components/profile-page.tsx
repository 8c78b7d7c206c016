// /homepage/perfil (spec 002 "Profile and virtual card"): the member's avatar, first name,
// birth date and state, the plan card (the member's live plan, or none), the account menu's
// links where the station shows them (`my_account_access`), editing (name, state, birthday
// and picture required) and, where the station takes them, the pre-registration change
// request. The user is the session's, kept current by every update's answer.
import { useState } from "react";
import { Link } from "react-router";
import { civilDate } from "@/features/accounts/civil-date";
import { PreRegistrationDialog, PRE_REGISTRATION_TITLE } from "@/features/accounts/components/pre-registration-dialog";
import { ProfileEditForm } from "@/features/accounts/components/profile-edit-form";
import { memberMenu, PROFILE_LINK } from "@/features/member";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { BRAZILIAN_STATES } from "@/lib/brazilian-states";
import type { User } from "@/types/api";
import "./profile.css";

export const PROFILE_TITLE = "Perfil";
export const NO_PLAN_TEXT = "Você não possui um plano ativo.";
export const EDIT_TEXT = "Editar perfil";

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

function stateName(code: string | null): string {
  return BRAZILIAN_STATES.find((state) => state.sigla === code)?.nome ?? code ?? "—";
}

function Avatar({ user }: { user: User }) {
  return user.image ? (
    <img className="profile__avatar" src={user.image} alt={`Foto de ${user.name}`} />
  ) : (
    <span className="profile__avatar profile__avatar--initial" role="img" aria-label={`Sem foto de ${user.name}`}>
      {firstName(user.name).charAt(0).toUpperCase()}
    </span>
  );
}

function PlanCard({ user, hasPlans }: { user: User; hasPlans: boolean }) {
  const plan = user.subscription?.plan;
  return (
    <section className="profile__plan" aria-labelledby="profile-plan-title">
      <h2 id="profile-plan-title" className="profile__section-title">
        Plano
      </h2>
      {plan ? (
        <>
          <p className="profile__plan-name">{plan.name}</p>
          <Link to="/homepage/assinaturas">Minhas assinaturas</Link>
        </>
      ) : (
        <>
          <p>{NO_PLAN_TEXT}</p>
          {hasPlans && <Link to="/homepage/planos">Ver planos</Link>}
        </>
      )}
    </section>
  );
}

export function ProfilePage() {
  const station = useStation();
  // The member area renders only behind the member guard, so a session is there.
  const user = useSession()?.user;
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  if (!user) return null;
  const menu = memberMenu(station);
  const links = (menu.account ?? []).filter((link) => link.to !== PROFILE_LINK.to);

  return (
    <section className="profile">
      <h1 className="page-title">{PROFILE_TITLE}</h1>
      <div className="profile__summary">
        <Avatar user={user} />
        <dl className="profile__facts">
          <div>
            <dt>Nome</dt>
            <dd>{firstName(user.name)}</dd>
          </div>
          <div>
            <dt>Data de nascimento</dt>
            <dd>{civilDate(user.birthday, "—")}</dd>
          </div>
          <div>
            <dt>Estado</dt>
            <dd>{stateName(user.state)}</dd>
          </div>
        </dl>
      </div>
      {editing ? (
        <ProfileEditForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <div className="profile__actions">
          <button type="button" className="button button--primary" onClick={() => setEditing(true)}>
            {EDIT_TEXT}
          </button>
          {station.pre_registration_access && (
            <button type="button" className="button button--secondary" onClick={() => setAsking(true)}>
              {PRE_REGISTRATION_TITLE}
            </button>
          )}
        </div>
      )}
      <PlanCard user={user} hasPlans={(station.plans ?? []).length > 0} />
      {links.length > 0 && (
        <nav className="profile__links" aria-label="Minha conta">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {asking && <PreRegistrationDialog user={user} onClose={() => setAsking(false)} />}
    </section>
  );
}
