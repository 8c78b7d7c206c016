// Types 1 and 19 (spec 001 "Invitations"): up to five addresses, the first plus four more
// added one by one; past five the snackbar says 'Limite de contatos alcançado'. Each address
// is required and valid (checked here with the shared validators, and again by the
// server). The member's invite link is shown with a copy button. Hidden like the other
// bodies when the activity is not open (the panel says why).
import { useState, type FormEvent } from "react";
import { TextField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useToast } from "@/components/toasts/use-toast";
import { inviteLink, useSendInvitation } from "@/features/invitations/api/send-invitation";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { email, required } from "@/lib/validators";
import type { Activity } from "@/types/api";
import "./invite-body.css";

export const MAX_ADDRESSES = 5;
export const CONTACT_LIMIT_TEXT = "Limite de contatos alcançado";
export const ADD_ADDRESS_TEXT = "Adicionar e-mail";
export const REMOVE_ADDRESS_TEXT = "Remover e-mail";
export const SEND_TEXT = "Enviar convites";
export const SENDING_TEXT = "Enviando...";
export const SENT_TOAST = { title: "Sucesso", text: "Operação realizada com sucesso" };
export const LINK_LABEL = "Seu link de convite";
export const COPY_TEXT = "Copiar link";
export const COPIED_TEXT = "Link copiado";

export const addressLabel = (index: number) => `E-mail do convidado ${index + 1}`;

/** The validators' message for one address, or nothing when it may be sent. */
export function addressError(value: string): string | undefined {
  const trimmed = value.trim();
  return required(trimmed) ?? email(trimmed);
}

function InviteLink({ link }: { link: string }) {
  const showSnackbar = useSnackbar();
  const copy = () => {
    // Without the clipboard API (an old browser, plain http) the member copies it by hand.
    void navigator.clipboard?.writeText(link).then(
      () => showSnackbar(COPIED_TEXT),
      () => undefined,
    );
  };
  return (
    <div className="invite-link">
      <TextField label={LINK_LABEL} value={link} readOnly onChange={() => undefined} onFocus={(e) => e.target.select()} />
      <button type="button" className="button button--secondary" onClick={copy}>
        {COPY_TEXT}
      </button>
    </div>
  );
}

export function InviteBody({ activity }: { activity: Activity }) {
  const session = useSession();
  const station = useStation();
  const showSnackbar = useSnackbar();
  const showToast = useToast();
  const sending = useSendInvitation(activity);
  const [addresses, setAddresses] = useState<string[]>([""]);
  const [checked, setChecked] = useState(false);
  const [sentLink, setSentLink] = useState<string | null>(null);

  if (activity.availability !== "open") return null;

  const user = session?.user;
  const link = sentLink ?? (user ? inviteLink(station.url, user.invite_code, user.id, station.id) : null);
  const errors = addresses.map((value) => (checked ? addressError(value) : undefined));

  const add = () => {
    if (addresses.length >= MAX_ADDRESSES) {
      showSnackbar(CONTACT_LIMIT_TEXT);
      return;
    }
    setAddresses([...addresses, ""]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (addresses.some((value) => addressError(value) !== undefined)) return;
    sending.mutate(
      addresses.map((value) => value.trim()),
      {
        onSuccess: (sent) => {
          setSentLink(sent.link);
          setAddresses([""]);
          setChecked(false);
          showToast(SENT_TOAST);
        },
      },
    );
  };

  return (
    <div className="invite-body">
      <form className="invite-form" onSubmit={submit} noValidate>
        {addresses.map((value, index) => (
          <div className="invite-form__address" key={index}>
            <TextField
              label={addressLabel(index)}
              type="email"
              inputMode="email"
              autoComplete="off"
              value={value}
              error={errors[index]}
              onChange={(next) => setAddresses(addresses.map((old, at) => (at === index ? next : old)))}
            />
            {index > 0 && (
              <button
                type="button"
                className="invite-form__remove"
                aria-label={`${REMOVE_ADDRESS_TEXT} ${index + 1}`}
                onClick={() => setAddresses(addresses.filter((_, at) => at !== index))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        <div className="invite-form__actions">
          <button type="button" className="button button--secondary" onClick={add}>
            {ADD_ADDRESS_TEXT}
          </button>
          <button type="submit" className="button button--primary" disabled={sending.isPending} aria-busy={sending.isPending}>
            {sending.isPending ? SENDING_TEXT : (activity.click_me_label ?? SEND_TEXT)}
          </button>
        </div>
      </form>
      {link && <InviteLink link={link} />}
    </div>
  );
}
