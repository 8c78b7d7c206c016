// The profile's edit form (spec 002 section 5: name, state, birthday and image required):
// the data goes to PUT /auth/update-participant/{id} and a new picture to
// PUT /update-user-profile-image/{id}, both the onboarding wizard's calls.
import { useState } from "react";
import { bindText, SelectField, TextField } from "@/components/form/fields";
import { BirthdayField } from "@/components/form/common-fields";
import { adult } from "@/components/form/rules";
import { StateOptions } from "@/components/form/state-options";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useToast } from "@/components/toasts/use-toast";
import { civilDate } from "@/features/accounts/civil-date";
import { useUpdateParticipant } from "@/features/accounts/signup/api/update-participant";
import { useUpdateProfileImage } from "@/features/accounts/signup/api/update-profile-image";
import { ImagePicker, payloadOf, type PickedImage } from "@/features/accounts/signup/components/image-picker";
import { dateToApi, maskDate } from "@/lib/masks";
import { noWhitespace, required } from "@/lib/validators";
import type { User } from "@/types/api";

export const SAVE_TEXT = "Salvar";
export const SAVED_TITLE = "Sucesso";
/** The spec's profile image limit ("Erro: Imagem maior que 1MB"). */
const IMAGE_LIMIT_MB = 1;

interface ProfileValues {
  name: string;
  state: string;
  birthday: string;
}

interface ProfileEditFormProps {
  user: User;
  onDone: () => void;
}

export function ProfileEditForm({ user, onDone }: ProfileEditFormProps) {
  const showToast = useToast();
  const update = useUpdateParticipant(user.id);
  const updateImage = useUpdateProfileImage(user.id);
  const [image, setImage] = useState<PickedImage | null>(null);
  const [imageMissing, setImageMissing] = useState(false);
  const rules: FormRules<ProfileValues> = {
    name: [required, noWhitespace],
    state: [required],
    birthday: [required, adult],
  };
  const form = useForm<ProfileValues>(
    { name: user.name, state: user.state ?? "", birthday: civilDate(user.birthday) },
    rules,
  );
  const busy = update.isPending || updateImage.isPending;

  const save = async (values: ProfileValues) => {
    // The picture is required: the member's current one, or a new one.
    if (!user.image && !image) {
      setImageMissing(true);
      return;
    }
    try {
      const saved = await update.mutateAsync({
        name: values.name.trim(),
        state: values.state,
        birthday: dateToApi(values.birthday),
      });
      const last = image ? await updateImage.mutateAsync(payloadOf(image)) : saved;
      showToast({ title: SAVED_TITLE, text: last.message });
      onDone();
    } catch {
      // The failed call's 'Erro' toast, with the server's text, is already showing.
    }
  };
  const submit = form.handleSubmit((values) => void save(values));

  return (
    <form className="profile-form" onSubmit={submit} noValidate aria-label="Editar perfil">
      <ImagePicker
        label="Alterar foto"
        limitMb={IMAGE_LIMIT_MB}
        image={image}
        onPick={(picked) => {
          setImage(picked);
          setImageMissing(false);
        }}
        previewAlt="Nova foto de perfil"
      />
      {imageMissing && (
        <p className="field__error" role="alert">
          Esse campo é obrigatório
        </p>
      )}
      <TextField label="Nome" autoComplete="name" {...bindText(form, "name")} />
      <SelectField label="Estado" {...bindText(form, "state")}>
        <StateOptions />
      </SelectField>
      <BirthdayField {...bindText(form, "birthday", maskDate)} />
      <div className="profile-form__actions">
        <button type="button" className="button button--secondary" onClick={onDone} disabled={busy}>
          Cancelar
        </button>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          {busy ? "Salvando..." : SAVE_TEXT}
        </button>
      </div>
    </form>
  );
}
