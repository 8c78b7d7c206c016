// The city of a chosen state: once the state's list has loaded, a select of its cities
// (native, so the keyboard's type-ahead and every screen reader work), disabled while there
// is no state or the list loads; when the list cannot be had, a text input, so a form is
// never blocked by the lookup. A city that is not in the loaded list (kept from another
// state, or typed before the list came) is cleared: the city sent belongs to the state.
import { useEffect } from "react";
import { SelectField, TextField } from "@/components/form/fields";
import { useStateCities } from "@/features/address/api/state-cities";
import { BRAZILIAN_STATES } from "@/lib/brazilian-states";

export const CITY_LABEL = "Cidade";
export const CITIES_LOADING_TEXT = "Carregando as cidades...";
export const CITIES_FAILED_TEXT = "Não foi possível carregar a lista de cidades. Digite o nome da sua cidade.";

interface CityFieldProps {
  /** The chosen state's sigla, "" for none. */
  state: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
}

export function CityField({ state, value, onChange, onBlur, error }: CityFieldProps) {
  const chosen = BRAZILIAN_STATES.find((known) => known.sigla === state);
  const cities = useStateCities(chosen?.sigla ?? "");
  const list = chosen ? cities.data : undefined;

  useEffect(() => {
    if (list && value !== "" && !list.some((city) => city.name === value)) onChange("");
  }, [list, value, onChange]);

  const loading = chosen !== undefined && cities.isPending;
  const failed = chosen !== undefined && cities.isError;
  const status = loading ? CITIES_LOADING_TEXT : failed ? CITIES_FAILED_TEXT : "";

  return (
    <div className="city-field">
      {failed ? (
        <TextField label={CITY_LABEL} autoComplete="address-level2" value={value} onChange={onChange} onBlur={onBlur} error={error} />
      ) : (
        <SelectField
          label={CITY_LABEL}
          autoComplete="address-level2"
          value={list ? value : ""}
          onChange={onChange}
          onBlur={onBlur}
          error={error}
          disabled={!list}
          aria-busy={loading || undefined}
        >
          <option value="">{chosen ? (list ? "Selecione" : CITIES_LOADING_TEXT) : "Selecione o estado primeiro"}</option>
          {list?.map((city) => (
            <option key={city.ibge} value={city.name}>
              {city.name}
            </option>
          ))}
        </SelectField>
      )}
      {/* Always present, so the change of text is announced. */}
      <p className="field__hint" role="status">
        {status}
      </p>
    </div>
  );
}
