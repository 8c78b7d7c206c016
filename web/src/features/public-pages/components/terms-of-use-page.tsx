import { LegalDocumentView } from "@/features/public-pages/components/legal-document-view";
import { termsOfUseFor } from "@/features/public-pages/legal/terms-of-use";
import { useStation } from "@/features/stations";

/** /termos-de-uso, for the station StationProvider has loaded. */
export function TermsOfUsePage() {
  return <LegalDocumentView document={termsOfUseFor(useStation())} />;
}
