import { describe, expect, it } from "vitest";
import vectorFile from "../../../ops/testkit/vectors/validators.json";
import {
  age18,
  alphaNumeric,
  cep,
  cnpj,
  cpf,
  date,
  email,
  lowerCase,
  maxLength,
  maxValue,
  MESSAGES,
  minLength,
  minValue,
  noWhitespace,
  normalizeSubdomain,
  number,
  password,
  required,
  requiredCheckbox,
  subdomain,
  type CalendarDate,
} from "@/lib/validators";
import { cardExpiry, cardNumber, cvv } from "@/lib/card-validators";

// The shared vectors, also checked by domain/tests/domain/validator_vectors.rs against the Rust rules.

type Scalar = string | number | boolean | null;
type VectorCase = Scalar | { value: Scalar; today?: string; message?: string; note?: string };
interface Section {
  n?: number;
  valid: VectorCase[];
  invalid: VectorCase[];
}
interface VectorFile {
  today: string;
  messages: Record<string, string>;
  [rule: string]: Section | Record<string, string> | string;
}

const vectors = vectorFile as unknown as VectorFile;
const META = ["about", "today", "messages"];

function isoDate(text: string): CalendarDate {
  const [year, month, day] = text.split("-").map(Number);
  return { year: year ?? 0, month: month ?? 0, day: day ?? 0 };
}

function text(value: Scalar): string {
  if (typeof value !== "string") throw new Error(`${JSON.stringify(value)} should be text`);
  return value;
}

function field(value: Scalar): string | number | null {
  if (typeof value === "boolean") throw new Error(`${value} should be text, a number or null`);
  return value;
}

function checkbox(value: Scalar): boolean | null {
  if (typeof value !== "boolean" && value !== null) throw new Error(`${JSON.stringify(value)} should be a boolean or null`);
  return value;
}

function numeric(value: Scalar): number {
  if (typeof value !== "number") throw new Error(`${JSON.stringify(value)} should be a number`);
  return value;
}

interface Rule {
  message: keyof typeof MESSAGES;
  run: (value: Scalar, n: number, today: CalendarDate) => string | undefined;
}

/** Each rule of the file, by its name there, run as a form would run it. */
const RULES: Record<string, Rule> = {
  required: { message: "required", run: (v) => required(field(v)) },
  required_checkbox: { message: "requiredCheckbox", run: (v) => requiredCheckbox(checkbox(v)) },
  age18: { message: "age18", run: (v, _n, today) => age18(text(v), today) },
  no_whitespace: { message: "noWhitespace", run: (v) => noWhitespace(text(v)) },
  max_length: { message: "maxLength", run: (v, n) => maxLength(n)(text(v)) },
  min_length: { message: "minLength", run: (v, n) => minLength(n)(text(v)) },
  number: { message: "number", run: (v) => number(text(v)) },
  min_value: { message: "minValue", run: (v, n) => minValue(n)(numeric(v)) },
  max_value: { message: "maxValue", run: (v, n) => maxValue(n)(numeric(v)) },
  password: { message: "password", run: (v) => password(text(v)) },
  email: { message: "email", run: (v) => email(text(v)) },
  alpha_numeric: { message: "alphaNumeric", run: (v) => alphaNumeric(text(v)) },
  lower_case: { message: "lowerCase", run: (v) => lowerCase(text(v)) },
  subdomain: { message: "subdomain", run: (v) => subdomain(text(v)) },
  cpf: { message: "cpf", run: (v) => cpf(text(v)) },
  cep: { message: "cep", run: (v) => cep(text(v)) },
  card_number: { message: "cardNumber", run: (v) => cardNumber(text(v)) },
  cvv: { message: "cvv", run: (v) => cvv(text(v)) },
  card_expiry: { message: "cardExpiry", run: (v, _n, today) => cardExpiry(text(v), today) },
  date: { message: "date", run: (v) => date(text(v)) },
  cnpj: { message: "cnpj", run: (v) => cnpj(text(v)) },
};

const sectionNames = Object.keys(vectors).filter((key) => !META.includes(key));

function section(rule: string): Section {
  return vectors[rule] as Section;
}

interface Expectation {
  label: string;
  value: Scalar;
  today: CalendarDate;
  message: string | undefined;
}

/** The cases of one rule, each with the answer the validator must give. */
function expectations(rule: string): Expectation[] {
  const { n, valid, invalid } = section(rule);
  const ruleMessage = (vectors.messages[rule] ?? "").replace("{n}", String(n));
  const fileToday = isoDate(vectors.today);
  const expand = (item: VectorCase, shouldPass: boolean): Expectation => {
    const entry = item !== null && typeof item === "object" ? item : { value: item };
    const today = "today" in entry && entry.today ? isoDate(entry.today) : fileToday;
    const message = shouldPass ? undefined : "message" in entry && entry.message ? entry.message : ruleMessage;
    const label = `${shouldPass ? "accepts" : "refuses"} ${JSON.stringify(entry.value)}${"today" in entry ? ` on ${entry.today}` : ""}`;
    return { label, value: entry.value, today, message };
  };
  return [...valid.map((item) => expand(item, true)), ...invalid.map((item) => expand(item, false))];
}

describe("shared validator vectors", () => {
  it("has one section per rule, and the rules' messages are the TypeScript constants", () => {
    expect([...sectionNames].sort()).toEqual(Object.keys(RULES).sort());
    const ours = Object.fromEntries(Object.entries(RULES).map(([name, rule]) => [name, MESSAGES[rule.message]]));
    expect(vectors.messages).toEqual(ours);
  });

  describe.each(sectionNames)("%s", (rule) => {
    it.each(expectations(rule))("$label", ({ value, today, message }) => {
      const validator = RULES[rule];
      if (!validator) throw new Error(`no TypeScript validator for the vectors' rule ${rule}`);
      expect(validator.run(value, section(rule).n ?? Number.NaN, today)).toBe(message);
    });
  });
});

describe("validators", () => {
  it("write the limit into the message", () => {
    expect(maxLength(5)("abcdef")).toBe("Esse campo deve possuir no máximo 5 caracteres");
    expect(minValue(10)(3)).toBe("O valor deve ser maior que 10");
  });

  it("pass a field left empty, except the required rules", () => {
    expect(minValue(10)(undefined)).toBeUndefined();
    expect(cpf(null)).toBeUndefined();
    expect(required(undefined)).toBe(MESSAGES.required);
    expect(requiredCheckbox(undefined)).toBe(MESSAGES.requiredCheckbox);
  });

  it("normalise a site name to lowercase without spaces", () => {
    expect(normalizeSubdomain(" Meu Clube ")).toBe("meuclube");
  });
});
