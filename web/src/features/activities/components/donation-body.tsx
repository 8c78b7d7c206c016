// Type 20 (spec 001, "Donation"): a form with the amount in reais (masked "R$ 1.234,56",
// the shared currency mask) and 'Doar'; the server
// spends it from the wallet and records the participation. Bounds are checked here with
// the spec's texts before anything is sent, and again by the server, whose refusal (the
// balance, the participation rules) shows under the field.
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { TextField } from "@/components/form/fields";
import { useDonate } from "@/features/activities/api/donate";
import { FeedbackDialog } from "@/features/activities/components/feedback-dialog";
import { toastForError } from "@/lib/api-client";
import { maskCurrencyBrl } from "@/lib/currency-mask";
import { digitsOf } from "@/lib/masks";
import type { Activity } from "@/types/api";

export const DONATION_LABEL = "Valor da doação (R$)";
export const DONATE_TEXT = "Doar";
export const DONATING_TEXT = "Enviando...";
export const MIN_CENTS = 50;
export const MAX_CENTS = 1_000_000;
export const BELOW_MIN = "Valor mínimo requerido de R$ 0,50";
export const ABOVE_MAX = "Valor máximo permitido de R$ 10.000,00.";
export const AMOUNT_INVALID = "Informe o valor da doação.";

/** What the amount (in centavos) is told, or nothing when it may be sent. */
export function amountError(cents: number): string | undefined {
  if (cents === 0) return AMOUNT_INVALID;
  if (cents < MIN_CENTS) return BELOW_MIN;
  if (cents > MAX_CENTS) return ABOVE_MAX;
  return undefined;
}

export function DonationBody({ activity }: { activity: Activity }) {
  const donation = useDonate(activity.id);
  const { pathname } = useLocation();
  const [amount, setAmount] = useState("");
  const [checked, setChecked] = useState(false);
  // The field holds the mask's "R$ 1.234,56": its digits are the centavos.
  const cents = Number(digitsOf(amount));
  const local = checked ? amountError(cents) : undefined;
  const error = local ?? (donation.isError ? toastForError(donation.error).text : undefined);

  if (activity.availability !== "open") return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (amountError(cents)) return;
    donation.mutate(cents, {
      onSuccess: () => {
        setAmount("");
        setChecked(false);
      },
    });
  };

  return (
    <form className="donation-form" onSubmit={submit} noValidate>
      <TextField
        label={DONATION_LABEL}
        inputMode="decimal"
        value={amount}
        error={error}
        onChange={(value) => {
          setAmount(maskCurrencyBrl(value));
          donation.reset();
        }}
      />
      <button type="submit" className="button button--primary" disabled={donation.isPending} aria-busy={donation.isPending}>
        {donation.isPending ? DONATING_TEXT : DONATE_TEXT}
      </button>
      {donation.isSuccess && <FeedbackDialog activity={activity} returnTo={pathname} onClose={donation.reset} />}
    </form>
  );
}
