import { useState } from "react";
import { useNavigate } from "react-router";
import { useUpdateParticipant } from "@/features/accounts/signup/api/update-participant";
import { useUpdateProfileImage } from "@/features/accounts/signup/api/update-profile-image";
import { ImagePicker, payloadOf, type PickedImage } from "@/features/accounts/signup/components/image-picker";
import { SignUpLayout } from "@/features/accounts/signup/components/sign-up-layout";
import { PersonalDataStep } from "@/features/accounts/signup/onboarding/personal-data-step";
import { useStation } from "@/features/stations";
import type { User } from "@/types/api";

/** This wizard takes pictures up to 3 MB (spec 000 section 5). */
export const ONBOARDING_PHOTO_LIMIT_MB = 3;

/** The onboarding's steps; exactly one is current (the spec's statuses are exclusive). */
export type OnboardingStep = "welcome" | "photo" | "personal-data" | "done";

const STEPS: readonly OnboardingStep[] = ["welcome", "photo", "personal-data", "done"];

const TITLES: Record<OnboardingStep, string> = {
  welcome: "Boas-vindas!",
  photo: "Sua foto",
  "personal-data": "Seus dados",
  done: "Tudo pronto!",
};

function PhotoStep({ user, onNext }: { user: User; onNext: () => void }) {
  const [image, setImage] = useState<PickedImage | null>(null);
  const upload = useUpdateProfileImage(user.id);

  return (
    <>
      <p className="sign-up__text">Adicione uma foto ao seu perfil. Você pode pular esta etapa.</p>
      <ImagePicker
        label="Escolher foto"
        limitMb={ONBOARDING_PHOTO_LIMIT_MB}
        image={image}
        onPick={setImage}
        previewAlt="Sua nova foto"
      />
      <div className="sign-up__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!image || upload.isPending}
          onClick={() => image && upload.mutate(payloadOf(image), { onSuccess: onNext })}
        >
          {upload.isPending ? "Enviando..." : "Salvar foto"}
        </button>
        <button type="button" className="button button--secondary" onClick={onNext} disabled={upload.isPending}>
          Pular
        </button>
      </div>
    </>
  );
}

function DoneStep({ user }: { user: User }) {
  const navigate = useNavigate();
  const finish = useUpdateParticipant(user.id);
  return (
    <>
      <p className="sign-up__text">Seu cadastro está completo. Aproveite as atividades e os benefícios do programa.</p>
      <div className="sign-up__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={finish.isPending}
          onClick={() => finish.mutate({ briefingDone: true }, { onSuccess: () => void navigate("/homepage") })}
        >
          {finish.isPending ? "Salvando..." : "Ir para o início"}
        </button>
      </div>
    </>
  );
}

/** /signup: welcome, photo (optional), personal data, completion. */
export function OnboardingWizard({ user }: { user: User }) {
  const station = useStation();
  const [step, setStep] = useState<OnboardingStep>("welcome");
  const index = STEPS.indexOf(step);
  const next = () => setStep(STEPS[index + 1] ?? "done");
  const firstName = user.name.trim().split(/\s+/)[0] ?? "";

  return (
    <SignUpLayout title={TITLES[step]} eyebrow={`Etapa ${index + 1} de ${STEPS.length}`}>
      {step === "welcome" && (
        <>
          <p className="sign-up__text">
            Olá{firstName ? `, ${firstName}` : ""}! Que bom ter você no {station.name}. Vamos completar o seu cadastro
            em poucos passos.
          </p>
          <div className="sign-up__actions">
            <button type="button" className="button button--primary" onClick={next}>
              Começar
            </button>
          </div>
        </>
      )}
      {step === "photo" && <PhotoStep user={user} onNext={next} />}
      {step === "personal-data" && <PersonalDataStep user={user} onDone={next} />}
      {step === "done" && <DoneStep user={user} />}
    </SignUpLayout>
  );
}
