// /homepage/numeros-da-sorte (spec 001 "Lucky numbers"): per giveaway campaign, the
// publication text the server words from the campaign's date ("Os números da sorte serão
// publicados até 01/02/2023 às 16h.") and the member's numbers with the activity that gave
// each. Only where the station shows lucky numbers (`lucky_numbers_access`); elsewhere the
// address is not found, as the API's 404. A failed load only ends the loading (spec 001
// section 8): the empty text shows and no toast is raised.
import { ListPage, Skeletons } from "@/components/list-page";
import { NotFoundPage } from "@/components/not-found-page";
import { useStation } from "@/features/stations";
import { useLuckyNumbers } from "@/features/lucky-numbers/api/get-lucky-numbers";
import { formatDate } from "@/lib/dates";
import type { GiveawayCampaign } from "@/types/api";
import "./lucky-numbers.css";

export const LUCKY_NUMBERS_TITLE = "Números da sorte";
export const NO_CAMPAIGNS_TEXT = "Não há sorteios no momento.";
export const NO_NUMBERS_TEXT = "Você ainda não tem números da sorte neste sorteio.";

function Campaign({ campaign }: { campaign: GiveawayCampaign }) {
  const headingId = `lucky-campaign-${campaign.id}`;
  return (
    <section className="lucky-campaign" aria-labelledby={headingId}>
      <h2 id={headingId} className="lucky-campaign__name">
        {campaign.name}
      </h2>
      <p className="lucky-campaign__publication">{campaign.publication_text}</p>
      {campaign.numbers.length === 0 ? (
        <p className="list-page__empty lucky-campaign__empty">{NO_NUMBERS_TEXT}</p>
      ) : (
        <ul className="lucky-numbers" aria-label={`Seus números: ${campaign.name}`}>
          {campaign.numbers.map((lucky) => (
            <li key={lucky.participation_id} className="lucky-number">
              <span className="lucky-number__value">{lucky.number}</span>
              <span className="lucky-number__origin">{lucky.action_name}</span>
              <span className="lucky-number__date">{formatDate(lucky.participated_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function LuckyNumbersPage() {
  const shown = useStation().lucky_numbers_access;
  const campaigns = useLuckyNumbers();
  if (!shown) return <NotFoundPage />;

  return (
    <ListPage title={LUCKY_NUMBERS_TITLE}>
      {campaigns.isPending ? (
        <Skeletons
          label="Carregando números da sorte"
          count={4}
          className="lucky-skeletons"
          itemClassName="lucky-skeletons__item skeleton-shimmer"
        />
      ) : (campaigns.data ?? []).length === 0 ? (
        <p className="list-page__empty lucky-page__empty">{NO_CAMPAIGNS_TEXT}</p>
      ) : (
        (campaigns.data ?? []).map((campaign) => <Campaign key={campaign.id} campaign={campaign} />)
      )}
    </ListPage>
  );
}
