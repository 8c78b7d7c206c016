import { CaptchaWidget, useCaptchaReset } from "@/features/captcha";
import { bindText, TextField } from "@/components/form/fields";
import { requiredCaptcha } from "@/components/form/rules";
import { useForm } from "@/components/form/use-form";
import { noWhitespace, normalizeSubdomain, required, subdomain } from "@/lib/validators";

/** Company sites live under one fixed host (spec 000 section 9): `{subdomain}.filia.app`. */
export const COMPANY_SITE_HOST_SUFFIX = "filia.app";

export interface CompanySiteValues {
  prettyName: string;
  subdomain: string;
  captcha: string;
}

interface CompanySiteStepProps {
  initialValues: CompanySiteValues;
  isPending: boolean;
  /** Every message of a refused sign-up. */
  errors: string[];
  /** `onFailed` runs when the sign-up is refused (the captcha token is spent). */
  onSubmit: (values: CompanySiteValues, onFailed: () => void) => void;
  onBack: () => void;
}

/** Step 5: the programme's name and its site address, lower-cased without spaces as typed. */
export function CompanySiteStep({ initialValues, isPending, errors, onSubmit, onBack }: CompanySiteStepProps) {
  const form = useForm(initialValues, {
    prettyName: [required, noWhitespace],
    subdomain: [required, subdomain],
    captcha: [requiredCaptcha],
  });
  const captcha = useCaptchaReset(() => form.setValue("captcha", ""));
  const host = `${form.values.subdomain || "seusite"}.${COMPANY_SITE_HOST_SUFFIX}`;

  return (
    <form className="sign-up-form" onSubmit={form.handleSubmit((values) => onSubmit(values, captcha.reset))} noValidate>
      <TextField label="Nome do programa" {...bindText(form, "prettyName")} />
      <TextField
        label="Nome do site"
        autoCapitalize="none"
        spellCheck={false}
        {...bindText(form, "subdomain", normalizeSubdomain)}
        hint={
          <>
            Seu site ficará em <strong>{host}</strong>
          </>
        }
      />
      <CaptchaWidget key={captcha.key} onChange={(token) => form.setValue("captcha", token)} error={form.errors.captcha} />
      {errors.length > 0 && (
        <div className="form-alert" role="alert">
          <ul>
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={isPending}>
          {isPending ? "Criando o seu site..." : "Criar meu site"}
        </button>
        <button type="button" className="button button--secondary" onClick={onBack} disabled={isPending}>
          Voltar
        </button>
      </div>
    </form>
  );
}
