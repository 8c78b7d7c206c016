// The print button of the receipt and the voucher reads 'Salvar' on mobile (spec 002
// section 2), where printing means saving a PDF: a device whose main pointer is a finger.
export const PRINT_TEXT = "Imprimir";
export const SAVE_TEXT = "Salvar";

export function printLabel(): string {
  return (window.matchMedia?.("(pointer: coarse)").matches ?? false) ? SAVE_TEXT : PRINT_TEXT;
}
