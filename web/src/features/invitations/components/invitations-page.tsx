// /homepage/convites-do-usuario (spec 001 "Invitations"): 'Meus convites', the people who
// signed up through the member's invite link, in a table of Nome and Data (DD/MM/AAAA
// HH:mm), newest first, with a name search that ignores case and accents.
import { useState } from "react";
import { ListPage, Skeletons } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useInvitations } from "@/features/invitations/api/get-invitations";
import { foldText, matchesFolded } from "@/lib/search-text";
import "./invitations-page.css";

export const INVITATIONS_TITLE = "Meus convites";
export const INVITATION_SEARCH_LABEL = "Pesquisar por nome";
export const NO_INVITATIONS_TEXT = "Não há convites";
export const NAME_COLUMN = "Nome";
export const DATE_COLUMN = "Data";

const DATE_TIME = new Intl.DateTimeFormat("pt-BR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** DD/MM/AAAA HH:mm, the spec's format for invitations. */
export function invitationDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : DATE_TIME.format(date).replace(",", "");
}

export function InvitationsPage() {
  const invitations = useInvitations();
  useErrorToast(invitations.error);
  const [term, setTerm] = useState("");
  const folded = foldText(term.trim());
  const shown = (invitations.data ?? []).filter((invitation) => matchesFolded(folded, invitation.invited.name));

  return (
    <ListPage title={INVITATIONS_TITLE} search={{ label: INVITATION_SEARCH_LABEL, value: term, onChange: setTerm }}>
      {invitations.isPending ? (
        <Skeletons
          label="Carregando convites"
          count={4}
          className="invitations-skeleton"
          itemClassName="invitations-skeleton__row"
        />
      ) : shown.length === 0 ? (
        <p className="list-page__empty">{NO_INVITATIONS_TEXT}</p>
      ) : (
        <table className="invitations-table" aria-label={INVITATIONS_TITLE}>
          <thead>
            <tr>
              <th scope="col">{NAME_COLUMN}</th>
              <th scope="col">{DATE_COLUMN}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((invitation) => (
              <tr key={invitation.id}>
                <td>{invitation.invited.name}</td>
                <td>{invitationDate(invitation.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListPage>
  );
}
