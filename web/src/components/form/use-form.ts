// Form state shared by the public forms (sign-up, login, recovery): the values and the first
// broken rule of each field, shown once the field was left or the form was submitted.
import { useCallback, useState, type FormEvent } from "react";

export type Rule<V, K extends keyof V> = (value: V[K], values: V) => string | undefined;

/** The rules of each field, in order; the first that fails gives the field's message. */
export type FormRules<V> = { [K in keyof V]?: ReadonlyArray<Rule<V, K>> };

export type FormErrors<V> = Partial<Record<keyof V, string>>;

function firstErrors<V extends object>(values: V, rules: FormRules<V>): FormErrors<V> {
  const errors: FormErrors<V> = {};
  for (const name of Object.keys(rules) as Array<keyof V>) {
    for (const rule of rules[name] ?? []) {
      const message = rule(values[name], values);
      if (message !== undefined) {
        errors[name] = message;
        break;
      }
    }
  }
  return errors;
}

export interface Form<V> {
  values: V;
  /** The messages to show now. */
  errors: FormErrors<V>;
  setValue: <K extends keyof V>(name: K, value: V[K]) => void;
  setValues: (changes: Partial<V>) => void;
  touch: (name: keyof V) => void;
  /** Validates everything; calls `onValid` only when no rule fails. */
  handleSubmit: (onValid: (values: V) => void) => (event: FormEvent) => void;
}

/** `rules` may differ between renders (fields shown by station kind); hidden fields have none. */
export function useForm<V extends object>(initial: V, rules: FormRules<V>): Form<V> {
  const [values, setAll] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const allErrors = firstErrors(values, rules);
  const errors: FormErrors<V> = {};
  for (const name of Object.keys(allErrors) as Array<keyof V>) {
    if (submitted || touched[name]) errors[name] = allErrors[name];
  }

  const setValue = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setAll((current) => ({ ...current, [name]: value }));
  }, []);
  const setValues = useCallback((changes: Partial<V>) => setAll((current) => ({ ...current, ...changes })), []);
  const touch = useCallback((name: keyof V) => setTouched((current) => ({ ...current, [name]: true })), []);

  const handleSubmit = (onValid: (values: V) => void) => (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(allErrors).length === 0) onValid(values);
  };

  return { values, errors, setValue, setValues, touch, handleSubmit };
}
