import { useState } from "react";
import { Modal } from "@/components/modal";
import { bindText, TextField } from "@/components/form/fields";
import { matchesPassword } from "@/components/form/rules";
import { useForm } from "@/components/form/use-form";
import { maskCnpj, maskCpf, maskDate, maskPhone } from "@/lib/masks";
import { cnpj, cpf, date, email, noWhitespace, password, required } from "@/lib/validators";
import { BirthdayField, NewPasswordFields, PhoneField } from "@/components/form/common-fields";

export interface CompanyPersonalValues {
  name: string;
  email: string;
  cpf: string;
  tel: string;
  birthday: string;
  password: string;
  password_confirmation: string;
  cnpj: string;
  full_social_name: string;
}

export const EMPTY_COMPANY_PERSONAL: CompanyPersonalValues = {
  name: "",
  email: "",
  cpf: "",
  tel: "",
  birthday: "",
  password: "",
  password_confirmation: "",
  cnpj: "",
  full_social_name: "",
};

/** The dialog of spec 000 section 8 for a company tax id that does not check out. */
export function InvalidCnpjDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="CNPJ inválido" onDismiss={onClose}>
      <p>Verifique o CNPJ informado e tente novamente.</p>
      <div className="modal__actions">
        <button type="button" className="button button--primary" onClick={onClose}>
          OK
        </button>
      </div>
    </Modal>
  );
}

interface CompanyPersonalStepProps {
  initialValues: CompanyPersonalValues;
  onSubmit: (values: CompanyPersonalValues) => void;
  onBack: () => void;
}

/** Step 2 of the company creator: the admin and the company's tax data. */
export function CompanyPersonalStep({ initialValues, onSubmit, onBack }: CompanyPersonalStepProps) {
  const [cnpjDialogOpen, setCnpjDialogOpen] = useState(false);
  const form = useForm(initialValues, {
    name: [required, noWhitespace],
    email: [required, email],
    cpf: [required, cpf],
    tel: [required],
    birthday: [required, date],
    password: [required, password],
    password_confirmation: [required, matchesPassword],
    cnpj: [required, cnpj],
    full_social_name: [required, noWhitespace],
  });
  const submitValid = form.handleSubmit(onSubmit);

  return (
    <form
      className="sign-up-form"
      noValidate
      onSubmit={(event) => {
        if (form.values.cnpj !== "" && cnpj(form.values.cnpj)) setCnpjDialogOpen(true);
        submitValid(event);
      }}
    >
      <TextField label="Nome completo" autoComplete="name" {...bindText(form, "name")} />
      <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
      <TextField label="CPF" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />
      <PhoneField {...bindText(form, "tel", maskPhone)} />
      <BirthdayField {...bindText(form, "birthday", maskDate)} />
      <NewPasswordFields
        password={bindText(form, "password")}
        confirmation={bindText(form, "password_confirmation")}
      />
      <TextField
        label="CNPJ da empresa"
        inputMode="numeric"
        placeholder="00.000.000/0000-00"
        {...bindText(form, "cnpj", maskCnpj)}
      />
      <TextField label="Razão social" autoComplete="organization" {...bindText(form, "full_social_name")} />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary">
          Continuar
        </button>
        <button type="button" className="button button--secondary" onClick={onBack}>
          Voltar
        </button>
      </div>
      {cnpjDialogOpen && <InvalidCnpjDialog onClose={() => setCnpjDialogOpen(false)} />}
    </form>
  );
}
