// The console's choice of station for pages of one station's data (subscriptions,
// top-ups), for staff whose grant covers every station; the id lives in the address.
import { SelectField } from "@/components/form/fields";
import { useOpsStations } from "@/features/staff/api/stations";

/** A positive id of the address, or null. */
export function idFrom(text: string | null): number | null {
  const trimmed = text?.trim() ?? "";
  if (!/^\d+$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function StationSelect({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const stations = useOpsStations();
  const options = stations.data?.map((station) => ({ id: station.id, name: station.name })) ?? [];
  if (value !== null && !options.some((option) => option.id === value)) {
    options.unshift({ id: value, name: `Estação ${value}` });
  }
  return (
    <SelectField
      label="Estação"
      value={value === null ? "" : String(value)}
      onChange={(text) => onChange(idFrom(text))}
    >
      <option value="">Escolha uma estação</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </SelectField>
  );
}
