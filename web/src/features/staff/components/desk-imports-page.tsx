// A desk's CSV imports in the console (docs/api-services.md, Imports): staff of a legal,
// accounting or health desk pick what the file holds (cases or appointments; health imports
// appointments only), choose the CSV their office exported and send it; the import is then
// followed (asked again while queued or running) with its progress bar, its counts and the
// rows it refused. Below, the desk's latest imports, each opened the same way.
// The route (/ops/desk/...) is wired by the desk console's pages: <DeskImportsPage
// stationId={...} desk="legal" />.
import { useId, useState, type FormEvent } from "react";
import "./desk-imports-page.css";
import {
  isRunning,
  useDeskImport,
  useDeskImports,
  useSendDeskImport,
  type ImportDesk,
  type ImportKind,
  type ServiceImport,
} from "@/features/staff/api/desk-imports";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { toastForError } from "@/lib/api-client";
import { formatDateTime } from "@/lib/dates";

export const IMPORTS_TITLE = "Importar planilha";
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
export const FILE_TOO_LARGE = "O arquivo deve ter no máximo 2 MB.";
export const FILE_REQUIRED = "Escolha o arquivo CSV.";
export const IMPORT_SENT = "Arquivo recebido. A importação começou.";

const DESK_LABELS: Record<ImportDesk, string> = {
  legal: "Consultoria jurídica",
  accounting: "Consultoria contábil",
  health: "Saúde",
};

const KIND_LABELS: Record<ImportKind, string> = { cases: "Processos", appointments: "Agendamentos" };

export const STATUS_LABELS: Record<string, string> = {
  queued: "Na fila",
  running: "Importando",
  done: "Concluída",
  failed: "Falhou",
};

const COLUMNS: Record<ImportKind, string> = {
  cases: "cpf;numero_processo;tipo;situacao;data_protocolo;tribunal_orgao;titulo;valor_causa;link_processo;coletiva",
  appointments: "referencia;cpf;servico;data;hora;situacao;escritorio;descricao",
};

function kindsOf(desk: ImportDesk): ImportKind[] {
  return desk === "health" ? ["appointments"] : ["cases", "appointments"];
}

/** The API's `field: message` without its field. */
function plainMessage(text: string): string {
  return text.replace(/^(kind|file): /, "");
}

function percentOf(item: ServiceImport): number {
  if (item.status === "done") return 100;
  if (item.total_rows <= 0) return 0;
  return Math.min(100, Math.round((item.processed_rows * 100) / item.total_rows));
}

export interface DeskImportsPageProps {
  stationId: number;
  desk: ImportDesk;
}

export function DeskImportsPage({ stationId, desk }: DeskImportsPageProps) {
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <section className="desk-imports" aria-labelledby="desk-imports-title">
      <h1 id="desk-imports-title">{IMPORTS_TITLE}</h1>
      <p className="desk-imports__desk">{DESK_LABELS[desk]}</p>
      <ImportForm stationId={stationId} desk={desk} onSent={setOpenId} />
      {openId !== null && <ImportDetail id={openId} />}
      <ImportList stationId={stationId} desk={desk} openId={openId} onOpen={setOpenId} />
    </section>
  );
}

function ImportForm({ stationId, desk, onSent }: DeskImportsPageProps & { onSent: (id: number) => void }) {
  const kinds = kindsOf(desk);
  const [kind, setKind] = useState<ImportKind>(kinds[0] ?? "appointments");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const send = useSendDeskImport(stationId, desk);
  const id = useId();
  const fileId = `${id}-file`;
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(false);
    if (!file) {
      setProblem(FILE_REQUIRED);
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setProblem(FILE_TOO_LARGE);
      return;
    }
    setProblem(null);
    send.mutate(
      { kind, file },
      {
        onSuccess: (queued) => {
          setSent(true);
          onSent(queued.import.id);
        },
        onError: (error) => setProblem(plainMessage(toastForError(error).text)),
      },
    );
  };

  return (
    <form className="desk-imports__form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>O que o arquivo traz</legend>
        {kinds.map((option) => (
          <label key={option} className="desk-imports__kind">
            <input
              type="radio"
              name={`${id}-kind`}
              value={option}
              checked={kind === option}
              onChange={() => setKind(option)}
            />
            {KIND_LABELS[option]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={fileId}>Arquivo CSV</label>
      <input
        id={fileId}
        type="file"
        accept=".csv,text/csv"
        aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
        aria-invalid={problem ? true : undefined}
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          setProblem(null);
        }}
      />
      <p id={hintId} className="desk-imports__hint">
        Até 2 MB, em UTF-8, separado por ponto e vírgula ou vírgula. A primeira linha deve ter as colunas:{" "}
        <code>{COLUMNS[kind]}</code>
      </p>
      {problem && (
        <p id={problemId} className="desk-imports__problem" role="alert">
          {problem}
        </p>
      )}
      {sent && (
        <p className="desk-imports__sent" role="status">
          {IMPORT_SENT}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={send.isPending}>
        {send.isPending ? "Enviando…" : "Enviar planilha"}
      </button>
    </form>
  );
}

function ImportDetail({ id }: { id: number }) {
  const query = useDeskImport(id);
  if (query.isPending) return <OpsLoading label="Carregando a importação" />;
  if (query.isError) return <OpsError title="Não foi possível carregar a importação." query={query} />;
  const item = query.data;
  const percent = percentOf(item);
  return (
    <section className="desk-imports__detail" aria-labelledby={`import-${item.id}-title`}>
      <h2 id={`import-${item.id}-title`}>
        {item.file_name} — {KIND_LABELS[item.kind as ImportKind] ?? item.kind}
      </h2>
      <p className="desk-imports__status" aria-live="polite">
        Situação: {STATUS_LABELS[item.status] ?? item.status}
      </p>
      <div
        className="desk-imports__bar"
        role="progressbar"
        aria-label="Progresso da importação"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${item.processed_rows} de ${item.total_rows} linhas`}
      >
        <span className="desk-imports__bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <dl className="desk-imports__counts">
        <div>
          <dt>Linhas</dt>
          <dd>{item.total_rows}</dd>
        </div>
        <div>
          <dt>Processadas</dt>
          <dd>{item.processed_rows}</dd>
        </div>
        <div>
          <dt>Incluídas</dt>
          <dd>{item.inserted}</dd>
        </div>
        <div>
          <dt>Atualizadas</dt>
          <dd>{item.updated}</dd>
        </div>
        <div>
          <dt>Sem alteração</dt>
          <dd>{item.unchanged}</dd>
        </div>
        <div>
          <dt>Recusadas</dt>
          <dd>{item.rejected.length}</dd>
        </div>
      </dl>
      {item.failure && (
        <p className="desk-imports__problem" role="alert">
          {item.failure}
        </p>
      )}
      {item.rejected.length > 0 && (
        <table className="desk-imports__rejected">
          <caption>Linhas recusadas</caption>
          <thead>
            <tr>
              <th scope="col">Linha</th>
              <th scope="col">Motivo</th>
            </tr>
          </thead>
          <tbody>
            {item.rejected.map((row) => (
              <tr key={`${row.line}-${row.message}`}>
                <td>{row.line}</td>
                <td>{row.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!isRunning(item.status) && item.finished_at && (
        <p className="desk-imports__hint">Concluída em {formatDateTime(item.finished_at)}</p>
      )}
    </section>
  );
}

function ImportList({
  stationId,
  desk,
  openId,
  onOpen,
}: DeskImportsPageProps & { openId: number | null; onOpen: (id: number) => void }) {
  const query = useDeskImports(stationId, desk);
  return (
    <section className="desk-imports__list" aria-labelledby="desk-imports-list-title">
      <h2 id="desk-imports-list-title">Importações anteriores</h2>
      {query.isPending ? (
        <OpsLoading label="Carregando as importações" />
      ) : query.isError ? (
        <OpsError title="Não foi possível carregar as importações." query={query} />
      ) : query.data.length === 0 ? (
        <OpsEmpty text="Nenhuma importação neste atendimento." />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Arquivo</th>
              <th scope="col">Tipo</th>
              <th scope="col">Enviado em</th>
              <th scope="col">Situação</th>
              <th scope="col">Resultado</th>
              <th scope="col">
                <span className="desk-imports__hidden">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((item) => (
              <tr key={item.id}>
                <td>{item.file_name}</td>
                <td>{KIND_LABELS[item.kind as ImportKind] ?? item.kind}</td>
                <td>{formatDateTime(item.created_at)}</td>
                <td>{STATUS_LABELS[item.status] ?? item.status}</td>
                <td>
                  {item.inserted} incluídas, {item.updated} atualizadas, {item.unchanged} sem alteração,{" "}
                  {item.rejected.length} recusadas
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-pressed={openId === item.id}
                    aria-label={`Ver a importação de ${item.file_name} (${formatDateTime(item.created_at)})`}
                    onClick={() => onOpen(item.id)}
                  >
                    Ver detalhes
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
