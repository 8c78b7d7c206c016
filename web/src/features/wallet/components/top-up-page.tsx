// /homepage/meios-de-pagamento/comprar (spec 002, "Wallet, cards and transfers"): two tabs,
// 'Abastecer créditos' (money into the wallet by PIX, card or bank transfer) and 'Pedidos
// de transferência'. The tab is kept in the address (?aba=pedidos), as the statement's.
import { useId, useRef, type KeyboardEvent } from "react";
import { useSearchParams } from "react-router";
import { useTopUpSettings } from "@/features/wallet/api/topups";
import { TopUpFormPanel } from "@/features/wallet/components/top-up-form-panel";
import { REQUESTS_LABEL, TransferRequests } from "@/features/wallet/components/transfer-requests";
import { toastForError } from "@/lib/api-client";
import "./statement.css";
import "./top-up.css";

export const TOP_UP_TITLE = "Comprar créditos";
export const TOP_UP_TAB_LABEL = "Abastecer créditos";
export const SETTINGS_ERROR_TEXT = "Não foi possível carregar as formas de pagamento.";

const TAB_PARAM = "aba";
const TABS = [
  { id: "abastecer", label: TOP_UP_TAB_LABEL },
  { id: "pedidos", label: REQUESTS_LABEL },
] as const;
type TabId = (typeof TABS)[number]["id"];

function tabOf(value: string | null): TabId {
  return TABS.find((tab) => tab.id === value)?.id ?? "abastecer";
}

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
  const [searchParams, setSearchParams] = useSearchParams();
  const current = tabOf(searchParams.get(TAB_PARAM));
  const baseId = useId();
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());

  const select = (tab: TabId) => {
    setSearchParams(
      (params) => {
        params.set(TAB_PARAM, tab);
        return params;
      },
      { replace: true },
    );
  };

  // Arrow keys move between the tabs (WAI-ARIA tabs pattern, selection follows focus).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = TABS.findIndex((tab) => tab.id === current);
    const step = event.key === "ArrowRight" ? 1 : TABS.length - 1;
    const next = TABS[(index + step) % TABS.length];
    if (!next) return;
    select(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  return (
    <section className="top-up">
      <h1 className="statement__title">{TOP_UP_TITLE}</h1>
      <div className="statement-tabs" role="tablist" aria-label={TOP_UP_TITLE} onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            className="statement-tabs__tab"
            aria-selected={tab.id === current}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => select(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="statement-panel" role="tabpanel" id={`${baseId}-${current}-panel`} aria-labelledby={`${baseId}-${current}-tab`}>
        {current === "abastecer" ? <TopUpTab onShowRequests={() => select("pedidos")} /> : <TransferRequests />}
      </div>
    </section>
  );
}
