// Which identifiers step 0 of the multi-step sign-up asks for, by station kind (spec 000
// sections 2 and 5; the choices the spec leaves open are in docs/decisions.md).
import type { Station } from "@/types/api";

export interface Step0Fields {
  /** Hidden on affiliated stations: the roster holds the person's e-mail. */
  email: boolean;
  /** Non-public stations, and affiliated ones (the roster is searched by CPF); never on no-CPF stations. */
  cpf: boolean;
  /**
   * Full name and phone, which the account needs (spec 000 section 5), on every station but
   * the affiliated ones (the roster has them).
   */
  nameAndTel: boolean;
  /** No-CPF stations identify the person by name and phone, so Continuar waits for them. */
  identifiedByNameAndTel: boolean;
}

export function step0Fields(station: Station): Step0Fields {
  return {
    email: !station.affiliated,
    cpf: !station.no_cpf && (!station.public || station.affiliated),
    nameAndTel: !station.affiliated,
    identifiedByNameAndTel: station.no_cpf,
  };
}

export interface Identifiers {
  email: string;
  cpf: string;
  name: string;
  tel: string;
}

/** Continue stays disabled until every identifier the station asks for has something in it. */
export function identifiersFilled(fields: Step0Fields, values: Identifiers): boolean {
  return (
    (!fields.email || values.email.trim() !== "") &&
    (!fields.cpf || values.cpf !== "") &&
    (!fields.identifiedByNameAndTel || (values.name.trim() !== "" && values.tel !== ""))
  );
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
