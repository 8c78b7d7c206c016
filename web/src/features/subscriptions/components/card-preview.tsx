// The live card of 'Cadastrar novo cartão': what is typed, the middle digits hidden. It
// repeats the fields, so screen readers read the fields and skip it.
import { cardBrandOf, previewCardNumber } from "@/features/subscriptions/subscription-form";

interface CardPreviewProps {
  number: string;
  name: string;
  expiry: string;
}

export function CardPreview({ number, name, expiry }: CardPreviewProps) {
  const brand = cardBrandOf(number);
  return (
    <div className="card-preview" aria-hidden="true" data-testid="card-preview">
      <span className="card-preview__brand">{brand ?? ""}</span>
      <span className="card-preview__number">{previewCardNumber(number)}</span>
      <span className="card-preview__name">{name.trim() === "" ? "NOME DO TITULAR" : name.toUpperCase()}</span>
      <span className="card-preview__expiry">{expiry === "" ? "MM/AA" : expiry}</span>
    </div>
  );
}
