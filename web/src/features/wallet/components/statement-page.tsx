// /homepage/extrato/extratos-totais (spec 002): the balance, what waits for release, and
// the two tabs of spends and credits; with credits spent and then reversed (issue 26), what
// is owed and the debts that later credits pay first.
import { useId, useState } from "react";
import { useWalletBalance } from "@/features/wallet/api/get-balance";
import {
  useEarnedTransactions,
  useSpentTransactions,
  useWalletDebts,
} from "@/features/wallet/api/get-transactions";
import { creditStatusText } from "@/features/wallet/credit-status";
import { TransactionList, type StatementLine } from "@/features/wallet/components/transaction-list";
import { UrlTabs } from "@/components/url-tabs";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { formatStationAmount, type CurrencySettings } from "@/lib/currency";
import { formatDate } from "@/lib/dates";
import type { EarnTransaction, UseTransaction, WalletDebt } from "@/types/api";
import "./statement.css";

const SPENT_TAB_LABEL = "Créditos Utilizados";
const EARNED_TAB_LABEL = "Créditos de Premiação";
const NO_SPENDS_TEXT = "Você ainda não fez transações com créditos na plataforma.";
const NO_CREDITS_TEXT = "Você ainda não ganhou créditos na plataforma.";
export const DEBT_LABEL = "Débito";
export const DEBTS_TITLE = "Débitos";
export const DEBTS_EXPLANATION =
  "Créditos que você já tinha utilizado quando a compra ou participação que os gerou foi estornada. " +
  "Os próximos créditos quitam o débito antes de entrar no saldo.";
export const DEBT_SETTLED_TEXT = "Quitado";

/** The tab is kept in the address (?aba=premiacao), so a reload shows the same list. */
const TABS = [
  { id: "utilizados", label: SPENT_TAB_LABEL },
  { id: "premiacao", label: EARNED_TAB_LABEL },
] as const;

function BalanceSummary({ currency }: { currency: CurrencySettings }) {
  const { data, isPending, isError } = useWalletBalance();
  const show = (cents: number | undefined) => {
    if (isPending) return "…";
    if (isError || cents === undefined) return "Indisponível";
    return formatStationAmount(cents, currency);
  };
  return (
    <dl className="statement-summary" aria-busy={isPending}>
      <div className="statement-summary__item">
        <dt>Saldo</dt>
        <dd>{show(data?.points_cents)}</dd>
      </div>
      <div className="statement-summary__item">
        <dt>A liberar</dt>
        <dd>{show(data?.pending_cents)}</dd>
      </div>
      {data !== undefined && data.debt_cents > 0 && (
        <div className="statement-summary__item statement-summary__item--debt">
          <dt>{DEBT_LABEL}</dt>
          <dd>{show(data.debt_cents)}</dd>
        </div>
      )}
    </dl>
  );
}

function SpentList({ userId, currency }: { userId: number; currency: CurrencySettings }) {
  const query = useSpentTransactions(userId);
  const toLine = (spend: UseTransaction): StatementLine => ({
    key: spend.id,
    name: spend.action.name,
    date: formatDate(spend.createdAt),
    amount: formatStationAmount(spend.points_cents, currency),
    status: null,
    tone: "default",
  });
  return <TransactionList query={query} toLine={toLine} emptyText={NO_SPENDS_TEXT} label={SPENT_TAB_LABEL} />;
}

function EarnedList({ userId, currency }: { userId: number; currency: CurrencySettings }) {
  const query = useEarnedTransactions(userId);
  // The moment the list opened: statuses ("libera em ...") count from it.
  const [now] = useState(Date.now);
  const toLine = (credit: EarnTransaction): StatementLine => ({
    key: credit.id,
    name: credit.action.name,
    date: formatDate(credit.createdAt),
    amount: formatStationAmount(credit.points_cents, currency),
    status: creditStatusText(credit, now),
    tone: credit.state === "pending" ? "pending" : credit.state === "available" ? "default" : "void",
  });
  return <TransactionList query={query} toLine={toLine} emptyText={NO_CREDITS_TEXT} label={EARNED_TAB_LABEL} />;
}

/** What a debt's line says: what is still owed, or that it was paid off. */
export function debtStatusText(debt: Pick<WalletDebt, "open_cents">, currency: CurrencySettings): string {
  return debt.open_cents > 0 ? `Em aberto: ${formatStationAmount(debt.open_cents, currency)}` : DEBT_SETTLED_TEXT;
}

/** The member's debts, shown only to a member who has had one. */
function DebtSection({ userId, currency }: { userId: number; currency: CurrencySettings }) {
  const query = useWalletDebts(userId);
  const headingId = useId();
  if ((query.data?.pages.flat() ?? []).length === 0) return null;
  const toLine = (debt: WalletDebt): StatementLine => ({
    key: debt.id,
    name: debt.description,
    date: formatDate(debt.createdAt),
    amount: formatStationAmount(debt.points_cents, currency),
    status: debtStatusText(debt, currency),
    tone: debt.open_cents > 0 ? "pending" : "default",
  });
  return (
    <section className="statement-debts" aria-labelledby={headingId}>
      <h2 id={headingId} className="statement-debts__title">
        {DEBTS_TITLE}
      </h2>
      <p className="statement-debts__explanation">{DEBTS_EXPLANATION}</p>
      <TransactionList query={query} toLine={toLine} emptyText="" label={DEBTS_TITLE} />
    </section>
  );
}

export function StatementPage() {
  const station = useStation();
  const userId = useSession()?.user.id;

  if (userId === undefined) return null;

  return (
    <section className="statement">
      <h1 className="statement__title">Extrato</h1>
      <BalanceSummary currency={station} />
      <DebtSection userId={userId} currency={station} />
      <UrlTabs tabs={TABS} label="Extrato">
        {(current) =>
          current === "utilizados" ? <SpentList userId={userId} currency={station} /> : <EarnedList userId={userId} currency={station} />
        }
      </UrlTabs>
    </section>
  );
}
