// 'Abastecer créditos' (spec 002, /homepage/meios-de-pagamento/comprar): 'Forma de
// pagamento' (PIX, Cartão, and Transferência where the station gave its bank details, shown
// here), 'Quantidade em BRL' and 'Fazer pedido'. PIX opens the shop's PIX panel until the
// top-up is credited; a card is charged at once and the statement follows; a transfer
// request opens the dialog that the order was generated. A top-up above the station's
// threshold waits for staff, and says so.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { TextField, bindText } from "@/components/form/fields";
import { useForm } from "@/components/form/use-form";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { CardTokenizerError, formatBrl, shopMessages, useCardTokenizer, useSavedCards } from "@/features/commerce";
import { STATEMENT_PATH } from "@/features/wallet/components/header-balance";
import { TopUpCardFields } from "@/features/wallet/components/top-up-card-fields";
import { TopUpPix } from "@/features/wallet/components/top-up-pix";
import { useCreateTopUp, useCreateTransferRequest, useTopUp } from "@/features/wallet/api/topups";
import type { TopUp, TopUpBankDetails, TopUpSettings } from "@/types/api";
import {
  AMOUNT_LABEL,
  EMPTY_TOP_UP_FORM,
  GENERIC_ERROR_TEXT,
  METHOD_LABELS,
  NEW_CARD,
  PIX_CREDITED_TEXT,
  PROCESSING_TEXT,
  PROCESSING_TITLE,
  REVIEW_TEXT,
  REVIEW_TITLE,
  SUBMIT_TEXT,
  SUCCESS_TEXT,
  SUCCESS_TITLE,
  TRANSFER_DONE_TITLE,
  cardToTokenize,
  centsOf,
  failureText,
  methodsFor,
  pointsOf,
  topUpFormRules,
  topUpToApi,
  transferDoneText,
  type PaymentMethod,
  type TopUpFormValues,
} from "@/features/wallet/top-up-form";
import { ApiError } from "@/lib/api-client";
import type { SavedCard } from "@/types/api";
import { maskCurrencyBrl } from "@/lib/currency-mask";

export const STATEMENT_LINK_TEXT = "Ver extrato";
export const NEW_TOP_UP_TEXT = "Fazer novo pedido";
export const SEE_REQUESTS_TEXT = "Ver pedidos de transferência";

/** What a refused top-up or transfer request tells: each of the server's messages, else 'Erro'. */
export function refusalTexts(error: unknown): string[] {
  if (error instanceof CardTokenizerError) return [error.message];
  if (error instanceof ApiError && typeof error.body === "object" && error.body !== null) {
    const { messages } = error.body as { messages?: unknown };
    const texts = Array.isArray(messages)
      ? messages.filter((text): text is string => typeof text === "string" && text.trim() !== "")
      : [];
    if (texts.length > 0) return texts;
    if (error.status === 429) return [error.message];
  }
  return [GENERIC_ERROR_TEXT];
}

function BankDetailsList({ bank }: { bank: TopUpBankDetails }) {
  const headingId = useId();
  return (
    <section className="top-up__bank" aria-labelledby={headingId}>
      <h2 id={headingId} className="top-up__subtitle">
        Dados para transferência
      </h2>
      <dl className="top-up__bank-details">
        <dt>Banco</dt>
        <dd>{bank.bank_name}</dd>
        <dt>Agência</dt>
        <dd>{bank.agency}</dd>
        <dt>Conta</dt>
        <dd>{bank.account}</dd>
        <dt>Titular</dt>
        <dd>{bank.holder}</dd>
        <dt>CPF/CNPJ</dt>
        <dd>{bank.document}</dd>
        {bank.pix_key && (
          <>
            <dt>Chave PIX</dt>
            <dd>{bank.pix_key}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** A settled top-up's outcome, its heading focused so a screen reader starts there. */
function Outcome({ title, children, role }: { title: string; children: ReactNode; role?: "alert" }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="top-up__outcome" role={role}>
      <h2 ref={heading} tabIndex={-1} className="top-up__subtitle">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A top-up no longer waiting for its PIX: credited, in review, still processing (a card), or ended otherwise. */
function Settled({ topUp, onAgain }: { topUp: TopUp; onAgain: () => void }) {
  const again = (
    <button type="button" className="button button--secondary" onClick={onAgain}>
      {NEW_TOP_UP_TEXT}
    </button>
  );
  if (topUp.status === "credited") {
    return (
      <Outcome title={SUCCESS_TEXT}>
        <p role="status">{PIX_CREDITED_TEXT}</p>
        <p>
          Valor creditado: <strong>{formatBrl(topUp.amount_cents)}</strong>
        </p>
        <div className="top-up__actions">
          <Link className="button button--primary" to={STATEMENT_PATH}>
            {STATEMENT_LINK_TEXT}
          </Link>
          {again}
        </div>
      </Outcome>
    );
  }
  if (topUp.status === "pending") {
    // A card the provider is still deciding on: read again until it settles.
    return (
      <Outcome title={PROCESSING_TITLE}>
        <p role="status">{PROCESSING_TEXT}</p>
      </Outcome>
    );
  }
  if (topUp.status === "review") {
    return (
      <Outcome title={REVIEW_TITLE}>
        <p>{REVIEW_TEXT}</p>
        <div className="top-up__actions">{again}</div>
      </Outcome>
    );
  }
  const expired = topUp.status === "expired";
  return (
    <Outcome title={expired ? shopMessages.PIX_EXPIRED.title : GENERIC_ERROR_TEXT} role="alert">
      <p>{expired ? shopMessages.PIX_EXPIRED.text : failureText(topUp)}</p>
      <div className="top-up__actions">{again}</div>
    </Outcome>
  );
}

/** The PIX or card top-up placed from this page, followed until it settles. */
function PlacedTopUp({ placed, onAgain }: { placed: TopUp; onAgain: () => void }) {
  const showToast = useToast();
  const current = useTopUp(placed.id).data ?? placed;
  if (current.status === "pending" && current.method === "pix") {
    return (
      <TopUpPix
        topUp={current}
        onExpired={() => {
          showToast(shopMessages.PIX_EXPIRED);
          onAgain();
        }}
      />
    );
  }
  return <Settled topUp={current} onAgain={onAgain} />;
}

function ErrorList({ texts }: { texts: readonly string[] }) {
  return (
    <div role="alert" className="top-up__errors">
      {texts.length > 0 && (
        <ul>
          {texts.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function TopUpFormPanel({ settings, onShowRequests }: { settings: TopUpSettings; onShowRequests: () => void }) {
  const navigate = useNavigate();
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  const form = useForm<TopUpFormValues>(EMPTY_TOP_UP_FORM, topUpFormRules(settings));
  const isCard = form.values.method === "card";
  const savedCards = useSavedCards(isCard);
  const tokenize = useCardTokenizer();
  const createTopUp = useCreateTopUp();
  const createTransfer = useCreateTransferRequest();
  const [placed, setPlaced] = useState<TopUp | null>(null);
  const [transferDone, setTransferDone] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const methods = methodsFor(settings);
  const busy = createTopUp.isPending || createTransfer.isPending;

  const refused = (error: unknown) => {
    const texts = refusalTexts(error);
    setErrors(texts);
    showSnackbar(texts[0] ?? GENERIC_ERROR_TEXT);
  };

  /** The card offered first: the first saved one, else a new one; none until the cards are read. */
  const defaultCard = (cards: readonly SavedCard[] | undefined) => {
    if (cards === undefined) return "";
    const first = cards[0];
    return first ? String(first.id) : NEW_CARD;
  };

  const chooseMethod = (method: PaymentMethod) => {
    setErrors([]);
    form.setValues({ method, selected_card: method === "card" ? defaultCard(savedCards.data) : "" });
  };

  // The saved cards arrive after the card was chosen (the choice waits for them): the
  // first one is offered by default (React's "adjust state when data changes", no effect).
  const [cardsSeen, setCardsSeen] = useState(savedCards.data);
  if (savedCards.data !== cardsSeen) {
    setCardsSeen(savedCards.data);
    if (isCard && form.values.selected_card === "") form.setValues({ selected_card: defaultCard(savedCards.data) });
  }

  const submit = form.handleSubmit((values) => {
    if (busy) return;
    setErrors([]);
    if (values.method === "transfer") {
      createTransfer.mutate(pointsOf(centsOf(values.amount)), {
        onSuccess: () => {
          form.setValues({ amount: "" });
          setTransferDone(true);
        },
        onError: refused,
      });
      return;
    }
    createTopUp.mutate(
      async () => {
        const newCard = values.method === "card" && values.selected_card === NEW_CARD;
        return topUpToApi(values, newCard ? await tokenize(cardToTokenize(values)) : null);
      },
      {
        onSuccess: (topUp) => {
          if (topUp.status === "credited" && topUp.method === "card") {
            showToast({ title: SUCCESS_TITLE, text: SUCCESS_TEXT });
            void navigate(STATEMENT_PATH);
            return;
          }
          setPlaced(topUp);
        },
        onError: refused,
      },
    );
  });

  const startOver = () => {
    setPlaced(null);
    form.setValues({ amount: "" });
  };

  if (placed) return <PlacedTopUp placed={placed} onAgain={startOver} />;

  return (
    <>
      <form className="top-up__form" onSubmit={submit} noValidate aria-busy={busy}>
        <fieldset className="top-up__methods">
          <legend>Forma de pagamento</legend>
          {methods.map((method) => (
            <label key={method} className="top-up__method">
              <input
                type="radio"
                name="top-up-method"
                value={method}
                checked={form.values.method === method}
                aria-describedby={form.errors.method ? "top-up-method-error" : undefined}
                onChange={() => chooseMethod(method)}
              />
              {METHOD_LABELS[method]}
            </label>
          ))}
          {form.errors.method && (
            <span id="top-up-method-error" className="field__error">
              {form.errors.method}
            </span>
          )}
        </fieldset>
        {form.values.method === "transfer" && settings.bank && <BankDetailsList bank={settings.bank} />}
        <TextField
          label={AMOUNT_LABEL}
          inputMode="decimal"
          placeholder="R$ 0,00"
          hint={`De ${formatBrl(settings.min_cents)} a ${formatBrl(settings.max_cents)} por pedido; hoje você ainda pode pedir ${formatBrl(Math.max(settings.daily_left_cents, 0))}.`}
          {...bindText(form, "amount", maskCurrencyBrl)}
        />
        {isCard && (
          <TopUpCardFields form={form} savedCards={savedCards.data ?? []} loading={savedCards.isPending && !savedCards.isError} />
        )}
        <ErrorList texts={errors} />
        <div className="top-up__actions">
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {SUBMIT_TEXT}
          </button>
        </div>
      </form>
      {transferDone && (
        <ConfirmDialog
          title={TRANSFER_DONE_TITLE}
          confirmLabel={SEE_REQUESTS_TEXT}
          onConfirm={() => {
            setTransferDone(false);
            onShowRequests();
          }}
          cancelLabel="Fechar"
          onCancel={() => setTransferDone(false)}
        >
          <p>{transferDoneText(settings.transfer_expiry_hours)}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
