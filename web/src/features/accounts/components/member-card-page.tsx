// /homepage/carteirinha (spec 002 "Profile and virtual card"): the virtual member card with
// the station's logo, the QR code of the public validator page, the padded member number,
// name, CPF, birth date, the member's establishments and its validity (the last day of the
// current month); 'Imprimir' prints the card alone (member-card.css), 'Salvar PDF' has the
// server make its PDF (a job) and downloads it. Only where the station shows member cards
// (`member_card_access`); elsewhere the address is not found, as the API's 404. A failed
// load only ends the loading (spec 002 section 8).
import { NotFoundPage } from "@/components/not-found-page";
import { civilDate } from "@/features/accounts/civil-date";
import { memberCardPdfPath, useMemberCardUser } from "@/features/accounts/api/member-card";
import { DocumentDownload, QrCode } from "@/features/commerce";
import { useStation } from "@/features/stations";
import type { MemberCard } from "@/types/api";
import "./member-card.css";

export const MEMBER_CARD_TITLE = "Carteirinha";
export const PRINT_TEXT = "Imprimir";
export const SAVE_PDF_TEXT = "Salvar PDF";
export const UNAVAILABLE_TEXT = "Não foi possível carregar a sua carteirinha.";

function Card({ card, userId }: { card: MemberCard; userId: number }) {
  const station = useStation();
  const facts: [string, string][] = [
    ["Matrícula", card.number],
    ["Nome", card.name],
    ["CPF", card.cpf ?? "—"],
    ["Data de nascimento", civilDate(card.birthday, "—")],
    ["Estabelecimentos", card.establishments.join(", ") || "—"],
  ];
  return (
    <>
      <article className="member-card" aria-label={`Carteirinha de ${card.name}`}>
        <header className="member-card__header">
          {station.logo_image && <img className="member-card__logo" src={station.logo_image} alt={station.name} />}
          <p className="member-card__station">{station.name}</p>
        </header>
        <div className="member-card__body">
          <dl className="member-card__facts">
            {facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <QrCode className="member-card__qr" value={card.validator_link} label="QR code de validação da carteirinha" />
        </div>
        <p className="member-card__validity">Válida até {civilDate(card.valid_until)}</p>
      </article>
      <div className="member-card__actions">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {PRINT_TEXT}
        </button>
        <DocumentDownload path={memberCardPdfPath(userId)} fileName={`carteirinha-${card.number}.pdf`} label={SAVE_PDF_TEXT} />
      </div>
    </>
  );
}

export function MemberCardPage() {
  const shown = useStation().member_card_access;
  const member = useMemberCardUser();
  if (!shown) return <NotFoundPage />;

  const card = member.data?.member_card;
  return (
    <section className="member-card-page">
      <h1 className="page-title">{MEMBER_CARD_TITLE}</h1>
      {member.isPending ? (
        <div className="member-card member-card--loading skeleton-shimmer" role="status" aria-label="Carregando carteirinha" />
      ) : card && member.data ? (
        <Card card={card} userId={member.data.id} />
      ) : (
        <p className="list-page__empty">{UNAVAILABLE_TEXT}</p>
      )}
    </section>
  );
}
