import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import type { Form } from "@/components/form/use-form";
import "./form.css";

/** A field's message, tied to its input by `id` (the input's aria-describedby). */
export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <span id={id} className="field__error">
      {error}
    </span>
  );
}

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange"> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input whose message is tied to it (aria-describedby). */
export function TextField({ label, error, hint, onChange, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && <span className="field__hint">{hint}</span>}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange"> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  children: ReactNode;
};

export function SelectField({ label, error, onChange, children, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        {...select}
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}

export function CheckboxField({ label, checked, onChange, error }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field field--checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V];

/**
 * The value, change and blur handlers and the message of a text field, with an optional mask
 * applied as the person types.
 */
export function bindText<V extends object, K extends StringKeys<V>>(
  form: Form<V>,
  name: K,
  mask?: (value: string) => string,
) {
  return {
    value: form.values[name] as string,
    onChange: (value: string) => form.setValue(name, (mask ? mask(value) : value) as V[K]),
    onBlur: () => form.touch(name),
    error: form.errors[name],
  };
}

type BooleanKeys<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V];

export function bindCheckbox<V extends object, K extends BooleanKeys<V>>(form: Form<V>, name: K) {
  return {
    checked: form.values[name] as boolean,
    onChange: (checked: boolean) => {
      form.setValue(name, checked as V[K]);
      form.touch(name);
    },
    error: form.errors[name],
  };
}
