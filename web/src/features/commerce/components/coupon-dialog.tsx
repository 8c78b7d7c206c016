// The coupon dialog (spec 002 sections 2 and 5): 'Aplicar cupom de desconto', the field
// 'Código do cupom' (required, trimmed), and 'Aplicar cupom', which reads 'Aplicando' while
// the server answers. The outcome's toasts ('Tudo certo', 'Cupom inválido') are the caller's.
import { useState } from "react";
import { TextField, bindText } from "@/components/form/fields";
import { useForm } from "@/components/form/use-form";
import { Modal } from "@/components/modal";
import { required } from "@/lib/validators";
import "./commerce.css";

export const COUPON_DIALOG_TITLE = "Aplicar cupom de desconto";

interface CouponDialogProps {
  /** The trimmed code; never called with an empty one. */
  onApply: (code: string) => void;
  applying: boolean;
  onClose: () => void;
  /** Why the server refused the last code applied, shown under the field until it is changed. */
  error?: string;
}

export function CouponDialog({ onApply, applying, onClose, error }: CouponDialogProps) {
  const form = useForm({ code: "" }, { code: [(value) => required(value.trim())] });
  const field = bindText(form, "code");
  const [appliedCode, setAppliedCode] = useState<string | null>(null);
  const serverError = form.values.code.trim() === appliedCode ? error : undefined;

  return (
    <Modal title={COUPON_DIALOG_TITLE} onDismiss={applying ? undefined : onClose}>
      <form
        className="commerce-dialog__form"
        noValidate
        onSubmit={form.handleSubmit(({ code }) => {
          if (applying) return;
          setAppliedCode(code.trim());
          onApply(code.trim());
        })}
      >
        <TextField
          label="Código do cupom"
          autoComplete="off"
          autoCapitalize="characters"
          {...field}
          error={field.error ?? serverError}
        />
        <div className="modal__actions">
          {/* aria-disabled rather than disabled, so the focus stays on the button while it waits. */}
          <button type="submit" className="button button--primary" aria-disabled={applying} aria-busy={applying}>
            {applying ? "Aplicando" : "Aplicar cupom"}
          </button>
          <button type="button" className="button button--secondary" disabled={applying} onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Modal>
  );
}
