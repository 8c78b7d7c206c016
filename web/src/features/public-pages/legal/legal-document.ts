// The shape of the legal texts (terms of use, privacy policy) and the station facts they
// are written from.
import { maskCnpj } from "@/lib/masks";
import type { Station } from "@/types/api";

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  /** The date as the page prints it, after "Última atualização:". */
  updatedAt: string;
  intro: string[];
  sections: LegalSection[];
}

/** The spec's date for the terms; the privacy texts were reviewed on the same day. */
export const LEGAL_TEXTS_UPDATED_AT = "05 de maio de 2023";

/** Who runs the programme: the establishment's social name, else the station's name. */
export function ownerName(station: Station): string {
  return station.establishment?.full_social_name ?? station.name;
}

/** "Associação X, inscrita no CNPJ sob o nº 00.000.000/0000-00", or the bare name without CNPJ. */
export function ownerWithCnpj(station: Station): string {
  const cnpj = station.establishment?.cnpj;
  return cnpj ? `${ownerName(station)}, inscrita no CNPJ sob o nº ${maskCnpj(cnpj)}` : ownerName(station);
}

/** Where to write to: the station's contact e-mail, else its contact page. */
export function contactChannel(station: Station): string {
  return station.contact_mail
    ? `pelo e-mail ${station.contact_mail} ou pela página "Fale conosco" (/suporte)`
    : `pela página "Fale conosco" (/suporte)`;
}
