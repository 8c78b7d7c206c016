import { formatCents } from "@/lib/currency";

/** "1 tarefa", "3 tarefas". */
export function countOf(count: number, singular: string, plural: string): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** Centavos of reais: "R$ 1.234,56". */
export function formatReais(cents: number): string {
  return `R$ ${formatCents(cents)}`;
}
