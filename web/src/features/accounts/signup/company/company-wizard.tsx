import { useState } from "react";
import { useNavigate } from "react-router";
import { adminSignUpMessages, useAdminSignUp } from "@/features/accounts/signup/api/sign-up-admin";
import { updateProfileImage } from "@/features/accounts/signup/api/update-profile-image";
import {
  CompanyPersonalStep,
  EMPTY_COMPANY_PERSONAL,
  InvalidCnpjDialog,
  type CompanyPersonalValues,
} from "@/features/accounts/signup/company/company-personal-step";
import { CompanySiteStep, type CompanySiteValues } from "@/features/accounts/signup/company/company-site-step";
import { ImagePicker, payloadOf, type PickedImage } from "@/features/accounts/signup/components/image-picker";
import { SignUpLayout } from "@/features/accounts/signup/components/sign-up-layout";
import { useStation } from "@/features/stations";
import { storeSession } from "@/lib/session-store";
import { dateToApi, digitsOf } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";
import { USER_TYPE_COMPANY_ADMIN } from "@/types/api";

/** The admin's photo and the company logo: 1 MB each (spec 000 section 5). */
export const COMPANY_IMAGE_LIMIT_MB = 1;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

const TITLES = [
  "Crie o site da sua empresa",
  "Sua foto",
  "Seus dados",
  "Logo da empresa",
  "Cor de destaque",
  "Nome do site",
  "Seu site está pronto!",
] as const;

type CompanyStep = 0 | 1 | 2 | 3 | 4 | 5 | 6;

interface StepActionsProps {
  onNext: () => void;
  onBack?: () => void;
  nextLabel?: string;
}

function StepActions({ onNext, onBack, nextLabel = "Continuar" }: StepActionsProps) {
  return (
    <div className="sign-up__actions">
      <button type="button" className="button button--primary" onClick={onNext}>
        {nextLabel}
      </button>
      {onBack && (
        <button type="button" className="button button--secondary" onClick={onBack}>
          Voltar
        </button>
      )}
    </div>
  );
}

function ColorStep({ color, onChange }: { color: string; onChange: (color: string) => void }) {
  const valid = HEX_COLOR.test(color);
  return (
    <div className="sign-up-form">
      <p className="sign-up__text">Escolha a cor que vai destacar botões e títulos do seu site.</p>
      <div className="field">
        <label className="field__label" htmlFor="company-color-picker">
          Cor de destaque
        </label>
        <input
          id="company-color-picker"
          type="color"
          value={valid ? color.toLowerCase() : "#000000"}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="company-color-hex">
          Código da cor
        </label>
        <input
          id="company-color-hex"
          className="field__input"
          value={color}
          maxLength={7}
          aria-invalid={valid ? undefined : true}
          onChange={(event) => onChange(event.target.value)}
        />
        {!valid && <span className="field__error">Cor inválida. Use o formato #RRGGBB.</span>}
      </div>
    </div>
  );
}

/** /cadastrar-empresa: a company admin creates their station, step by step. */
export function CompanyWizard() {
  const station = useStation();
  const navigate = useNavigate();
  const signUp = useAdminSignUp();
  const [step, setStep] = useState<CompanyStep>(0);
  const [photo, setPhoto] = useState<PickedImage | null>(null);
  const [personal, setPersonal] = useState<CompanyPersonalValues>(EMPTY_COMPANY_PERSONAL);
  const [logo, setLogo] = useState<PickedImage | null>(null);
  const [color, setColor] = useState(station.main_brand_color.toUpperCase());
  const [site, setSite] = useState<CompanySiteValues>({ prettyName: "", subdomain: "", captcha: "" });
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [cnpjDialogOpen, setCnpjDialogOpen] = useState(false);
  const go = (target: CompanyStep) => () => setStep(target);

  const submit = (siteValues: CompanySiteValues, onFailed: () => void) => {
    // Kept for going back and forth, without the token: the submit spends it.
    setSite({ ...siteValues, captcha: "" });
    setServerErrors([]);
    signUp.mutate(
      {
        name: personal.name.trim(),
        email: personal.email.trim().toLowerCase(),
        password: personal.password,
        password_confirmation: personal.password_confirmation,
        cpf: digitsOf(personal.cpf),
        tel: digitsOf(personal.tel),
        birthday: dateToApi(personal.birthday),
        cnpj: digitsOf(personal.cnpj),
        full_social_name: personal.full_social_name.trim(),
        prettyName: siteValues.prettyName.trim(),
        subdomain: siteValues.subdomain,
        country: "BR",
        main_brand_image: logo && payloadOf(logo),
        main_brand_color: color.toUpperCase(),
        type: USER_TYPE_COMPANY_ADMIN,
        captcha: siteValues.captcha,
      },
      {
        onSuccess: (answer) => {
          storeSession({ user: answer.user, token: answer.token });
          // The photo needs the new account; a failed upload does not undo the site.
          const photoSaved = photo
            ? updateProfileImage(answer.user.id, payloadOf(photo)).then(
                ({ user }) => storeSession({ user: { ...answer.user, ...user }, token: answer.token }),
                () => undefined,
              )
            : Promise.resolve();
          void photoSaved.then(() => setStep(6));
        },
        onError: (error) => {
          onFailed();
          const messages = adminSignUpMessages(error);
          setServerErrors(messages);
          if (messages.includes(MESSAGES.cnpj)) {
            setCnpjDialogOpen(true);
            setStep(2);
          }
        },
      },
    );
  };

  return (
    <SignUpLayout title={TITLES[step]} eyebrow={step > 0 && step < 6 ? `Etapa ${step} de 5` : undefined}>
      {step === 0 && (
        <>
          <p className="sign-up__text">
            Em poucos passos você cria o programa de relacionamento da sua empresa: seus dados, a marca, a cor e o
            endereço do site.
          </p>
          <StepActions onNext={go(1)} nextLabel="Começar" />
        </>
      )}
      {step === 1 && (
        <>
          <p className="sign-up__text">Adicione uma foto ao seu perfil de administrador. Você pode pular esta etapa.</p>
          <ImagePicker
            label="Escolher foto"
            limitMb={COMPANY_IMAGE_LIMIT_MB}
            image={photo}
            onPick={setPhoto}
            previewAlt="Sua foto"
          />
          <StepActions onNext={go(2)} onBack={go(0)} nextLabel={photo ? "Continuar" : "Pular"} />
        </>
      )}
      {step === 2 && (
        <CompanyPersonalStep
          initialValues={personal}
          onBack={go(1)}
          onSubmit={(values) => {
            setPersonal(values);
            setStep(3);
          }}
        />
      )}
      {step === 3 && (
        <>
          <p className="sign-up__text">Envie o logo da sua empresa (até 1MB).</p>
          <ImagePicker
            label="Escolher logo"
            limitMb={COMPANY_IMAGE_LIMIT_MB}
            image={logo}
            onPick={setLogo}
            previewAlt="Logo da empresa"
          />
          <StepActions onNext={go(4)} onBack={go(2)} nextLabel={logo ? "Continuar" : "Pular"} />
        </>
      )}
      {step === 4 && (
        <>
          <ColorStep color={color} onChange={setColor} />
          <div className="sign-up__actions">
            <button type="button" className="button button--primary" disabled={!HEX_COLOR.test(color)} onClick={go(5)}>
              Continuar
            </button>
            <button type="button" className="button button--secondary" onClick={go(3)}>
              Voltar
            </button>
          </div>
        </>
      )}
      {step === 5 && (
        <CompanySiteStep
          initialValues={site}
          isPending={signUp.isPending}
          errors={serverErrors}
          onSubmit={submit}
          onBack={go(4)}
        />
      )}
      {step === 6 && (
        <>
          <p className="sign-up__text">O que você quer fazer agora?</p>
          <div className="sign-up__actions">
            <button type="button" className="button button--primary" onClick={() => void navigate("/homepage")}>
              Criar conteúdo para os fãs
            </button>
            <button type="button" className="button button--secondary" onClick={() => void navigate("/homepage")}>
              Aprender a usar a plataforma
            </button>
          </div>
        </>
      )}
      {cnpjDialogOpen && <InvalidCnpjDialog onClose={() => setCnpjDialogOpen(false)} />}
    </SignUpLayout>
  );
}
