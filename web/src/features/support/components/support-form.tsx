// The contact form of /suporte, /suporte-enterprise and /homepage/support (spec 002
// "Support", "Support and contact"): name, e-mail, phone (optional, masked), subject (at
// most 200 characters), message (at most 600) and the captcha. The enterprise variant's
// subject is fixed and its button waits for e-mail, name, message and captcha. A signed-in
// member's name and e-mail come filled in. On success: the toast, then /.
import { useId } from "react";
import { useNavigate } from "react-router";
import { PhoneField } from "@/components/form/common-fields";
import { bindText, FieldError, TextField } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useToast } from "@/components/toasts/use-toast";
import { CaptchaWidget, useCaptchaReset } from "@/features/captcha";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { useSendSupport } from "@/features/support/api/send-support";
import { digitsOf, maskPhone } from "@/lib/masks";
import { email, maxLength, MESSAGES, required } from "@/lib/validators";
import "./support.css";

export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 600;
/** The enterprise variant's subject (the spec names a fixed enterprise-query text, not shown). */
export const ENTERPRISE_SUBJECT = "Consulta sobre plano Enterprise";
export const SENT_TITLE = "Sucesso";
/** Spec 002's error catalogue: "Support | success 'Operação realizada com sucesso'". */
export const SENT_TEXT = "Operação realizada com sucesso";
export const SEND_LABEL = "Enviar";
export const SENDING_LABEL = "Enviando...";

export type SupportVariant = "contact" | "enterprise";

interface SupportValues {
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  captcha: string;
}

const phoneDigits = (value: string) => {
  const digits = digitsOf(value).length;
  return digits === 0 || digits >= 10 ? undefined : "Telefone inválido";
};

const RULES: FormRules<SupportValues> = {
  name: [required, (value) => (value.trim() === "" ? MESSAGES.required : undefined)],
  email: [required, email],
  phone: [phoneDigits],
  subject: [required, maxLength(SUBJECT_MAX)],
  message: [required, maxLength(MESSAGE_MAX)],
  captcha: [required],
};

export function SupportForm({ variant = "contact" }: { variant?: SupportVariant }) {
  const session = useSession();
  const station = useStation();
  const user = session?.user ?? null;
  const form = useForm<SupportValues>(
    {
      name: user?.name ?? "",
      email: user?.email ?? "",
      phone: user?.tel ? maskPhone(user.tel) : "",
      subject: variant === "enterprise" ? ENTERPRISE_SUBJECT : "",
      message: "",
      captcha: "",
    },
    RULES,
  );
  const captcha = useCaptchaReset(() => form.setValue("captcha", ""));
  const send = useSendSupport();
  const showToast = useToast();
  const navigate = useNavigate();
  const messageId = useId();
  const { values } = form;
  const enterpriseReady =
    values.email.trim() !== "" && values.name.trim() !== "" && values.message.trim() !== "" && values.captcha !== "";
  const disabled = send.isPending || (variant === "enterprise" && !enterpriseReady);

  const onSubmit = form.handleSubmit((filled) => {
    send.mutate(
      {
        name: filled.name.trim(),
        email: filled.email.trim(),
        phone: digitsOf(filled.phone) === "" ? null : digitsOf(filled.phone),
        subject: filled.subject.trim(),
        message: filled.message.trim(),
        captcha: filled.captcha,
        station_id: user?.station_id ?? station.id,
        user_id: user?.id ?? null,
      },
      {
        onSuccess: () => {
          showToast({ title: SENT_TITLE, text: SENT_TEXT });
          void navigate("/");
        },
        // A captcha token works once: a refused message needs a fresh one.
        onError: () => captcha.reset(),
      },
    );
  });

  return (
    <form className="support-form" noValidate onSubmit={onSubmit} aria-busy={send.isPending}>
      <TextField label="Nome" autoComplete="name" {...bindText(form, "name")} />
      <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
      <PhoneField {...bindText(form, "phone", maskPhone)} />
      {variant === "enterprise" ? (
        <p className="support-form__subject">
          <span className="field__label">Assunto</span> {ENTERPRISE_SUBJECT}
        </p>
      ) : (
        <TextField label="Assunto" maxLength={SUBJECT_MAX} {...bindText(form, "subject")} />
      )}
      <div className="field">
        <label className="field__label" htmlFor={messageId}>
          Mensagem
        </label>
        <textarea
          id={messageId}
          className="field__input support-form__message"
          rows={6}
          value={values.message}
          aria-invalid={form.errors.message ? true : undefined}
          aria-describedby={`${messageId}-count${form.errors.message ? ` ${messageId}-error` : ""}`}
          onChange={(event) => form.setValue("message", event.target.value)}
          onBlur={() => form.touch("message")}
        />
        <span id={`${messageId}-count`} className="field__hint">
          {[...values.message].length}/{MESSAGE_MAX}
        </span>
        <FieldError id={`${messageId}-error`} error={form.errors.message} />
      </div>
      <CaptchaWidget key={captcha.key} onChange={(token) => form.setValue("captcha", token)} error={form.errors.captcha} />
      <div className="support-form__actions">
        <button type="submit" className="button button--primary" disabled={disabled}>
          {send.isPending ? SENDING_LABEL : SEND_LABEL}
        </button>
      </div>
    </form>
  );
}
