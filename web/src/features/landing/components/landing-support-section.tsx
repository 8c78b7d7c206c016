// The landing's support form section (type 8): the support feature's 'Fale conosco' form,
// whose code loads only when the section nears the viewport (the landing's first load stays
// within its budget).
import { lazy, Suspense } from "react";
import { NearViewport } from "@/features/landing/components/near-viewport";

const SupportForm = lazy(async () => ({ default: (await import("@/features/support")).SupportForm }));

export function LandingSupportSection() {
  return (
    <NearViewport>
      <Suspense fallback={null}>
        <SupportForm />
      </Suspense>
    </NearViewport>
  );
}
