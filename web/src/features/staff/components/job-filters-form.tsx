import { useState, type FormEvent } from "react";
import { SelectField, TextField } from "@/components/form/fields";
import { useQueues } from "@/features/staff/api/queues";
import { useOpsStations } from "@/features/staff/api/stations";
import { EMPTY_FILTER_FIELDS, type JobFilterFields } from "@/features/staff/job-filter";
import { JOB_STATE_LABELS, JOB_STATES, isJobState } from "@/features/staff/job-states";
import { useOpsMe } from "@/features/staff/ops-context";

interface JobFiltersFormProps {
  initial: JobFilterFields;
  onApply: (fields: JobFilterFields) => void;
}

/** The stations in the caller's scope; a station named in the address stays selectable. */
function StationSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const stations = useOpsStations();
  const options = stations.data?.map((station) => ({ id: String(station.id), name: station.name })) ?? [];
  if (value !== "" && !options.some((option) => option.id === value)) {
    options.unshift({ id: value, name: `Estação ${value}` });
  }
  return (
    <SelectField label="Estação" value={value} onChange={onChange}>
      <option value="">Todas as estações</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The list's filters; they apply on "Filtrar" (or Enter), "Limpar" empties them. */
export function JobFiltersForm({ initial, onApply }: JobFiltersFormProps) {
  const me = useOpsMe();
  const [fields, setFields] = useState(initial);
  const queues = useQueues();
  const queueNames = queues.data?.map((queue) => queue.name) ?? [];
  // A queue named in the address stays selectable even before (or without) the queue list.
  if (fields.queue !== "" && !queueNames.includes(fields.queue)) queueNames.unshift(fields.queue);

  const set = <K extends keyof JobFilterFields>(key: K, value: JobFilterFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(fields);
  };

  return (
    <form className="ops-filters" role="search" aria-label="Filtrar tarefas" onSubmit={submit}>
      <SelectField label="Fila" value={fields.queue} onChange={(value) => set("queue", value)}>
        <option value="">Todas as filas</option>
        {queueNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Estado"
        value={fields.state}
        onChange={(value) => set("state", isJobState(value) ? value : "")}
      >
        <option value="">Todos os estados</option>
        {JOB_STATES.map((state) => (
          <option key={state} value={state}>
            {JOB_STATE_LABELS[state]}
          </option>
        ))}
      </SelectField>
      {/* A one-station grant sees one station only: nothing to choose. */}
      {me.station === null && (
        <StationSelect value={fields.station_id} onChange={(value) => set("station_id", value)} />
      )}
      <TextField label="De" type="datetime-local" value={fields.from} onChange={(value) => set("from", value)} />
      <TextField label="Até" type="datetime-local" value={fields.to} onChange={(value) => set("to", value)} />
      <TextField
        label="Texto"
        type="search"
        placeholder="No conteúdo ou no erro"
        value={fields.q}
        onChange={(value) => set("q", value)}
      />
      <div className="ops-filters__actions">
        <button type="submit" className="button button--primary">
          Filtrar
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setFields(EMPTY_FILTER_FIELDS);
            onApply(EMPTY_FILTER_FIELDS);
          }}
        >
          Limpar
        </button>
      </div>
    </form>
  );
}
