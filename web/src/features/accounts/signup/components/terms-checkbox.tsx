import { useState } from "react";
import { Link } from "react-router";
import { Modal } from "@/components/modal";
import { CheckboxField } from "@/components/form/fields";
import { useStation } from "@/features/stations";

type Popup = "terms" | "privacy";

function TermsSummary({ stationName }: { stationName: string }) {
  return (
    <>
      <p>
        O programa {stationName} reconhece a sua participação com pontos e benefícios. Para participar é preciso ser
        maior de 18 anos e ter CPF, manter os seus dados de acesso em sigilo e seguir as regras de cada ação.
      </p>
      <p>
        Os pontos e os créditos da carteira seguem as regras de resgate e a duração do programa descritas nos termos
        completos.
      </p>
    </>
  );
}

function PrivacySummary({ stationName }: { stationName: string }) {
  return (
    <p>
      O {stationName} usa os seus dados para identificar você, manter a sua conta e creditar os seus benefícios. Você
      pode pedir acesso, correção ou exclusão dos seus dados a qualquer momento.
    </p>
  );
}

interface TermsCheckboxProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}

/** "I accept" with the terms of use and the privacy policy a click away, in a popup. */
export function TermsCheckbox({ checked, onChange, error }: TermsCheckboxProps) {
  const station = useStation();
  const [popup, setPopup] = useState<Popup | null>(null);
  const close = () => setPopup(null);

  return (
    <>
      <CheckboxField
        checked={checked}
        onChange={onChange}
        error={error}
        label={
          <>
            Li e aceito os{" "}
            <button type="button" className="link-button" onClick={() => setPopup("terms")}>
              Termos de uso
            </button>{" "}
            e a{" "}
            <button type="button" className="link-button" onClick={() => setPopup("privacy")}>
              Política de privacidade
            </button>
          </>
        }
      />
      {popup && (
        <Modal title={popup === "terms" ? "Termos de uso" : "Política de privacidade"} onDismiss={close}>
          {popup === "terms" ? (
            <TermsSummary stationName={station.name} />
          ) : (
            <PrivacySummary stationName={station.name} />
          )}
          <div className="modal__actions">
            <Link
              className="button button--secondary"
              to={popup === "terms" ? "/termos-de-uso" : "/politica-de-privacidade"}
              target="_blank"
              rel="noopener"
            >
              {popup === "terms" ? "Ler os termos completos" : "Ler a política completa"}
            </Link>
            <button type="button" className="button button--primary" onClick={close}>
              Fechar
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
