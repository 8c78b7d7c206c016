import { LegalDocumentView } from "@/features/public-pages/components/legal-document-view";
import { privacyPolicyFor } from "@/features/public-pages/legal/privacy-policy";
import { useStation } from "@/features/stations";

/** /politica-de-privacidade, for the station StationProvider has loaded. */
export function PrivacyPolicyPage() {
  return <LegalDocumentView document={privacyPolicyFor(useStation())} />;
}
