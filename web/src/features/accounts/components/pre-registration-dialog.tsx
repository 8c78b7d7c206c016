// The profile's pre-registration change request (spec 002: e-mail valid, situacao one of
// Ativo, Aposentado, Inativo, Pensionista), sent to the station's registry. Success reads
// 'Sucesso' / 'Solicitação enviada com sucesso.'; a failure the catalogue's 'Erro' toast.
import { bindText, SelectField, TextField } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { Modal } from "@/components/modal";
import { useToast } from "@/components/toasts/use-toast";
import { SITUATIONS, usePreRegistrationChange } from "@/features/accounts/api/pre-registration-change";
import { maskPhone } from "@/lib/masks";
import { email, required } from "@/lib/validators";
import type { User } from "@/types/api";

export const PRE_REGISTRATION_TITLE = "Solicitar alteração cadastral";
export const SENT_TEXT = "Solicitação enviada com sucesso.";

interface PreRegistrationValues {
  telefonefixo: string;
  celular: string;
  email: string;
  situacao: string;
  endereco: string;
}

const RULES: FormRules<PreRegistrationValues> = {
  email: [required, email],
  situacao: [required],
};

const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());

export function PreRegistrationDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const showToast = useToast();
  const send = usePreRegistrationChange();
  const form = useForm<PreRegistrationValues>(
    { telefonefixo: "", celular: maskPhone(user.tel ?? ""), email: user.email ?? "", situacao: "", endereco: "" },
    RULES,
  );
  const submit = form.handleSubmit((values) =>
    send.mutate(
      {
        telefonefixo: optional(values.telefonefixo),
        celular: optional(values.celular),
        email: values.email.trim().toLowerCase(),
        situacao: values.situacao,
        endereco: optional(values.endereco),
      },
      {
        onSuccess: ({ message }) => {
          showToast({ title: "Sucesso", text: message });
          onClose();
        },
      },
    ),
  );

  return (
    <Modal title={PRE_REGISTRATION_TITLE} onDismiss={onClose}>
      <form className="profile-form" onSubmit={submit} noValidate>
        <TextField label="Telefone fixo" type="tel" autoComplete="tel-national" {...bindText(form, "telefonefixo", maskPhone)} />
        <TextField label="Celular" type="tel" autoComplete="tel-national" {...bindText(form, "celular", maskPhone)} />
        <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
        <SelectField label="Situação" {...bindText(form, "situacao")}>
          <option value="">Selecione</option>
          {SITUATIONS.map((situation) => (
            <option key={situation} value={situation}>
              {situation}
            </option>
          ))}
        </SelectField>
        <TextField label="Endereço" autoComplete="street-address" {...bindText(form, "endereco")} />
        <div className="profile-form__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className="button button--primary" disabled={send.isPending} aria-busy={send.isPending}>
            {send.isPending ? "Enviando..." : "Enviar"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
