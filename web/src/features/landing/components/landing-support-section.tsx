// The landing's support form section (type 8): the support feature's 'Fale conosco' form,
// whose code loads when the section nears the viewport (the landing's first load stays
// within its budget).
import { NearViewport } from "@/features/landing/components/near-viewport";
import { SupportForm } from "@/features/support";

export function LandingSupportSection() {
  return (
    <NearViewport>
      <SupportForm />
    </NearViewport>
  );
}
