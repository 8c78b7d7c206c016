// /homepage/meios-de-pagamento/comprar (spec 002, "Wallet, cards and transfers"): two tabs,
// 'Abastecer créditos' (money into the wallet by PIX, card or bank transfer) and 'Pedidos
// de transferência'. The tab is kept in the address (?aba=pedidos), as the statement's.
import { useTopUpSettings } from "@/features/wallet/api/topups";
import { TopUpFormPanel } from "@/features/wallet/components/top-up-form-panel";
import { REQUESTS_LABEL, TransferRequests } from "@/features/wallet/components/transfer-requests";
import { UrlTabs } from "@/components/url-tabs";
import { toastForError } from "@/lib/api-client";
import "./statement.css";
import "./top-up.css";

export const TOP_UP_TITLE = "Comprar créditos";
export const TOP_UP_TAB_LABEL = "Abastecer créditos";
export const SETTINGS_ERROR_TEXT = "Não foi possível carregar as formas de pagamento.";

const TABS = [
  { id: "abastecer", label: TOP_UP_TAB_LABEL },
  { id: "pedidos", label: REQUESTS_LABEL },
] as const;

function TopUpTab({ onShowRequests }: { onShowRequests: () => void }) {
  const settings = useTopUpSettings();
  if (settings.isPending) {
    return (
      <div className="statement-skeleton" role="status" aria-label="Carregando formas de pagamento" aria-busy="true">
        {Array.from({ length: 3 }, (_, index) => (
          <div key={index} className="statement-skeleton__row" aria-hidden="true">
            <span className="statement-skeleton__bar statement-skeleton__bar--wide" />
          </div>
        ))}
      </div>
    );
  }
  if (settings.isError) {
    return (
      <div className="statement-error" role="alert">
        <p>{SETTINGS_ERROR_TEXT}</p>
        <p>{toastForError(settings.error).text}</p>
        <button type="button" className="button button--secondary" onClick={() => void settings.refetch()}>
          Tentar novamente
        </button>
      </div>
    );
  }
  return <TopUpFormPanel settings={settings.data} onShowRequests={onShowRequests} />;
}

export function TopUpPage() {
  return (
    <section className="top-up">
      <h1 className="statement__title">{TOP_UP_TITLE}</h1>
      <UrlTabs tabs={TABS} label={TOP_UP_TITLE}>
        {(current, select) => (current === "abastecer" ? <TopUpTab onShowRequests={() => select("pedidos")} /> : <TransferRequests />)}
      </UrlTabs>
    </section>
  );
}
