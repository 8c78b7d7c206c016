// The contact form for screens of other features (the landing's support section), loaded
// when it first shows.
import { lazy, Suspense } from "react";
import type { SupportVariant } from "@/features/support/components/support-form";

const Form = lazy(async () => ({
  default: (await import("@/features/support/components/support-form")).SupportForm,
}));

/** 'Fale conosco': sends `POST /enviar-suporte`, then goes to / with the success toast. */
export function SupportForm({ variant = "contact" }: { variant?: SupportVariant }) {
  return (
    <Suspense fallback={null}>
      <Form variant={variant} />
    </Suspense>
  );
}
