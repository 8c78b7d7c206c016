import { BRAZILIAN_STATES } from "@/lib/brazilian-states";

/** The 27 states, by sigla. */
export function StateOptions() {
  return (
    <>
      <option value="">Selecione</option>
      {BRAZILIAN_STATES.map((state) => (
        <option key={state.id} value={state.sigla}>
          {state.nome}
        </option>
      ))}
    </>
  );
}
