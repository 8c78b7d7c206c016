// The 'Processos' tab of the legal and accounting desks: the cases the office follows, kept
// by the member's CPF (the member's page shows those of their CPF), listed by CPF
// (?cpf=, digits) and paged, and a form to record one or edit one (audited). A case of a CPF
// nobody has signed up with yet is kept all the same: it shows once that member joins.
import { useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { CheckboxField, TextField, bindCheckbox, bindText } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useDeskCases, useSaveDeskCase } from "@/features/staff/api/desk";
import type { DeskCase, DeskCaseInput } from "@/types/api";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { formatCpf, type DeskGrant } from "@/features/staff/desk-labels";
import { countOf, formatReais } from "@/features/staff/format";
import { toastForError } from "@/lib/api-client";
import { maskCurrencyBrl } from "@/lib/currency-mask";
import { formatCents } from "@/lib/currency";
import { formatCivilDate, formatDateTime } from "@/lib/dates";
import { digitsOf, maskCpf } from "@/lib/masks";
import { cpf as cpfRule, required } from "@/lib/validators";

export const CASE_RECORDED = "Processo registrado.";
export const CASE_UPDATED = "Processo atualizado.";
export const HTTPS_ONLY = "Informe um endereço que comece com https://";

interface CaseValues {
  cpf: string;
  caseNumber: string;
  kind: string;
  situation: string;
  filedOn: string;
  court: string;
  title: string;
  claim: string;
  link: string;
  collective: boolean;
}

const EMPTY: CaseValues = {
  cpf: "",
  caseNumber: "",
  kind: "",
  situation: "",
  filedOn: "",
  court: "",
  title: "",
  claim: "",
  link: "",
  collective: false,
};

const RULES: FormRules<CaseValues> = {
  cpf: [required, cpfRule],
  caseNumber: [(value) => required(value.trim())],
  link: [(value) => (value.trim() === "" || value.trim().startsWith("https://") ? undefined : HTTPS_ONLY)],
};

function valuesOf(record: DeskCase): CaseValues {
  return {
    cpf: maskCpf(record.cpf),
    caseNumber: record.case_number,
    kind: record.kind,
    situation: record.situation,
    filedOn: record.filed_on ?? "",
    court: record.court,
    title: record.title,
    claim: record.claim_cents === null ? "" : `R$ ${formatCents(record.claim_cents)}`,
    link: record.link ?? "",
    collective: record.collective,
  };
}

function inputOf(values: CaseValues): DeskCaseInput {
  const claim = digitsOf(values.claim);
  return {
    cpf: digitsOf(values.cpf),
    case_number: values.caseNumber.trim(),
    kind: values.kind.trim(),
    situation: values.situation.trim(),
    filed_on: values.filedOn === "" ? null : values.filedOn,
    court: values.court.trim(),
    title: values.title.trim(),
    claim_cents: claim === "" ? null : Number(claim),
    link: values.link.trim() === "" ? null : values.link.trim(),
    collective: values.collective,
  };
}

function CaseForm({ grant, editing, onDone }: { grant: DeskGrant; editing: DeskCase | null; onDone: () => void }) {
  const form = useForm<CaseValues>(editing ? valuesOf(editing) : EMPTY, RULES);
  const save = useSaveDeskCase(grant.station_id, grant.desk);
  const showSnackbar = useSnackbar();
  const legal = grant.desk === "legal";
  const headingId = `desk-case-form-${grant.desk}`;
  return (
    <section className="ops-card desk-case-form" aria-labelledby={headingId}>
      <h2 className="desk-card__title" id={headingId}>
        {editing ? `Editar processo ${editing.case_number}` : "Registrar processo"}
      </h2>
      <form
        className="desk-form"
        noValidate
        onSubmit={form.handleSubmit((values) =>
          save.mutate(
            { id: editing?.id ?? null, input: inputOf(values) },
            {
              onSuccess: () => {
                showSnackbar(editing ? CASE_UPDATED : CASE_RECORDED);
                onDone();
              },
            },
          ),
        )}
      >
        <TextField label="CPF" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />
        <TextField label="Número do processo" {...bindText(form, "caseNumber")} />
        <TextField label="Tipo" {...bindText(form, "kind")} />
        <TextField label="Situação" {...bindText(form, "situation")} />
        <TextField label="Data do protocolo" type="date" {...bindText(form, "filedOn")} />
        <TextField label="Tribunal / órgão" {...bindText(form, "court")} />
        {legal && <TextField label="Título" {...bindText(form, "title")} />}
        <TextField label="Valor da causa" inputMode="numeric" {...bindText(form, "claim", maskCurrencyBrl)} />
        <TextField label="Link do processo" type="url" {...bindText(form, "link")} />
        {legal && <CheckboxField label="Causa coletiva (aparece em 'Causas coletivas')" {...bindCheckbox(form, "collective")} />}
        {save.isError && (
          <p className="ops-error-summary desk-form__wide" role="alert">
            {toastForError(save.error).text}
          </p>
        )}
        <div className="ops-actions desk-form__wide">
          <button type="submit" className="button button--primary" disabled={save.isPending} aria-busy={save.isPending}>
            {editing ? "Salvar alterações" : "Registrar processo"}
          </button>
          {editing && (
            <button type="button" className="button button--secondary" disabled={save.isPending} onClick={onDone}>
              Cancelar edição
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

function CaseRow({ record, legal, canAct, onEdit }: { record: DeskCase; legal: boolean; canAct: boolean; onEdit: (record: DeskCase) => void }) {
  return (
    <tr>
      <td>
        {record.link ? (
          <a href={record.link} target="_blank" rel="noreferrer">
            {record.case_number}
          </a>
        ) : (
          record.case_number
        )}
      </td>
      <td>{formatCpf(record.cpf)}</td>
      <td>{record.kind || "—"}</td>
      <td>{record.situation || "—"}</td>
      <td>{formatCivilDate(record.filed_on)}</td>
      <td>{record.court || "—"}</td>
      {legal && <td>{record.title || "—"}</td>}
      <td>{record.claim_cents === null ? "—" : formatReais(record.claim_cents)}</td>
      {legal && <td>{record.collective ? "Coletiva" : "Pessoal"}</td>}
      <td>{formatDateTime(record.updated_at)}</td>
      {canAct && (
        <td>
          <button
            type="button"
            className="button button--secondary ops-button--small"
            aria-label={`Editar o processo ${record.case_number}`}
            onClick={() => onEdit(record)}
          >
            Editar
          </button>
        </td>
      )}
    </tr>
  );
}

function CaseList({ grant, cpf, onEdit }: { grant: DeskGrant; cpf: string; onEdit: (record: DeskCase) => void }) {
  const [page, setPage] = useState(1);
  const list = useDeskCases(grant.station_id, grant.desk, cpf, page);
  const legal = grant.desk === "legal";
  if (list.data === undefined) {
    if (list.isError) return <OpsError title="Não foi possível carregar os processos." query={list} />;
    return <OpsLoading label="Carregando processos" />;
  }
  if (list.data.cases.length === 0) {
    return <OpsEmpty text={cpf ? "Nenhum processo neste CPF." : "Nenhum processo registrado neste atendimento."} />;
  }
  return (
    <>
      <p className="ops-muted">{countOf(list.data.total, "processo", "processos")}</p>
      <div className="ops-table-wrap">
        <table className="ops-table" aria-label="Processos">
          <thead>
            <tr>
              <th scope="col">Processo</th>
              <th scope="col">CPF</th>
              <th scope="col">Tipo</th>
              <th scope="col">Situação</th>
              <th scope="col">Protocolo</th>
              <th scope="col">Tribunal / órgão</th>
              {legal && <th scope="col">Título</th>}
              <th scope="col">Valor da causa</th>
              {legal && <th scope="col">Causa</th>}
              <th scope="col">Atualizado em</th>
              {grant.can_act && <th scope="col">Ações</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.cases.map((record) => (
              <CaseRow key={record.id} record={record} legal={legal} canAct={grant.can_act} onEdit={onEdit} />
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />
    </>
  );
}

export function DeskCases({ grant }: { grant: DeskGrant }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const cpf = digitsOf(searchParams.get("cpf") ?? "");
  const [typed, setTyped] = useState(cpf === "" ? "" : maskCpf(cpf));
  const [editing, setEditing] = useState<DeskCase | null>(null);
  // A new form for each case edited and after each save.
  const [formKey, setFormKey] = useState(0);
  const formRef = useRef<HTMLDivElement>(null);

  const search = (next: string) =>
    setSearchParams((params) => {
      if (next) params.set("cpf", next);
      else params.delete("cpf");
      return params;
    });

  const edit = (record: DeskCase) => {
    setEditing(record);
    setFormKey((key) => key + 1);
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>("input")?.focus());
  };

  return (
    <>
      <form
        className="ops-filters"
        role="search"
        aria-label="Buscar processos por CPF"
        onSubmit={(event) => {
          event.preventDefault();
          search(digitsOf(typed));
        }}
      >
        <TextField label="CPF" inputMode="numeric" value={typed} onChange={(text) => setTyped(maskCpf(text))} />
        <div className="ops-filters__actions">
          <button type="submit" className="button button--primary">
            Buscar
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setTyped("");
              search("");
            }}
          >
            Limpar
          </button>
        </div>
      </form>
      <CaseList key={cpf} grant={grant} cpf={cpf} onEdit={edit} />
      {grant.can_act && (
        <div ref={formRef}>
          <CaseForm
            key={formKey}
            grant={grant}
            editing={editing}
            onDone={() => {
              setEditing(null);
              setFormKey((key) => key + 1);
            }}
          />
        </div>
      )}
    </>
  );
}
