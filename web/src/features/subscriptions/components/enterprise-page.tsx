// /homepage/planos/sobconsulta (spec 002): the enterprise plan's contact form. The message
// (at most 600 characters) and the captcha are required; the button waits for both.
import { useId, useState } from "react";
import { FieldError } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import { CaptchaWidget, useCaptchaReset } from "@/features/captcha";
import { useEnterpriseContact } from "@/features/subscriptions/api/enterprise-contact";
import { ErrorList } from "@/features/subscriptions/components/error-list";
import { SUCCESS_TEXT, subscriptionErrorTexts } from "@/features/subscriptions/messages";
import { maxLength } from "@/lib/validators";
import "./subscriptions.css";

export const ENTERPRISE_TITLE = "Plano sob consulta";
export const ENTERPRISE_MESSAGE_MAX = 600;
const tooLong = maxLength(ENTERPRISE_MESSAGE_MAX);

export function EnterprisePage() {
  const [message, setMessage] = useState("");
  const [captchaToken, setCaptchaToken] = useState("");
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const captcha = useCaptchaReset(() => setCaptchaToken(""));
  const contact = useEnterpriseContact();
  const showSnackbar = useSnackbar();
  const id = useId();
  const messageError = tooLong(message);
  const ready = message.trim() !== "" && messageError === undefined && captchaToken !== "" && !contact.isPending;

  if (sent) {
    return (
      <section className="subscription-form">
        <h1 className="page-title">{ENTERPRISE_TITLE}</h1>
        <p role="status">{SUCCESS_TEXT}</p>
      </section>
    );
  }

  return (
    <form
      className="subscription-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        setErrors([]);
        contact.mutate(
          { message: message.trim(), captcha: captchaToken },
          {
            onSuccess: () => setSent(true),
            onError: (error) => {
              const texts = subscriptionErrorTexts(error);
              setErrors(texts);
              showSnackbar(texts[0] ?? "");
              captcha.reset();
            },
          },
        );
      }}
    >
      <h1 className="page-title">{ENTERPRISE_TITLE}</h1>
      <p>Conte para nós o que a sua organização precisa e entraremos em contato.</p>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Mensagem
        </label>
        <textarea
          id={id}
          className="field__input subscription-form__message"
          rows={6}
          value={message}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={`${id}-count${messageError ? ` ${id}-error` : ""}`}
          onChange={(event) => setMessage(event.target.value)}
        />
        <span id={`${id}-count`} className="field__hint">
          {[...message].length}/{ENTERPRISE_MESSAGE_MAX}
        </span>
        <FieldError id={`${id}-error`} error={messageError} />
      </div>
      <CaptchaWidget key={captcha.key} onChange={setCaptchaToken} />
      <ErrorList texts={errors} />
      <div className="subscription-form__actions">
        <button type="submit" className="button button--primary" disabled={!ready}>
          Enviar
        </button>
      </div>
    </form>
  );
}
