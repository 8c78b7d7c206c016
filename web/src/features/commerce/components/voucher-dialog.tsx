// The voucher dialog (spec 002 section 2): the site's logo, the activity, the member, the
// dependents of a family voucher, the creation date, the QR code of the validator link,
// the code, the rules, the valid-until date, print ('Salvar' on mobile), the way home and
// the voucher's PDF. Loaded with its QR encoder and sanitiser when a voucher is first opened.
import { Link } from "react-router";
import { Modal } from "@/components/modal";
import { voucherPdfPath } from "@/features/commerce/api/documents";
import { DocumentDownload } from "@/features/commerce/components/document-download";
import { QrCode } from "@/features/commerce/components/qr-code";
import { SafeHtml } from "@/components/safe-html";
import { VOUCHER_USED_TEXT } from "@/features/commerce/messages";
import { printLabel } from "@/features/commerce/print";
import { isVoucherUsed } from "@/features/commerce/vouchers";
import { useSession } from "@/features/session";
import { StationLogo } from "@/features/stations";
import { formatDate } from "@/lib/dates";
import type { Voucher } from "@/types/api";

export const VOUCHER_PDF_TEXT = "Baixar PDF";

interface VoucherDialogProps {
  voucher: Voucher;
  onClose: () => void;
}

export function VoucherDialog({ voucher, onClose }: VoucherDialogProps) {
  const memberName = useSession()?.user.name ?? "";
  const course = voucher.presential_course;
  const family = course.action.familiarVoucher && voucher.dependents.length > 0;
  const validUntil = formatDate(course.date);
  return (
    <Modal title={course.name} onDismiss={onClose}>
      <div className="voucher-dialog">
        <StationLogo className="voucher-dialog__logo" />
        <p className="voucher-dialog__member">{memberName}</p>
        <p className="voucher-dialog__product">{voucher.product}</p>
        {family && (
          <table className="voucher-dialog__dependents">
            <thead>
              <tr>
                <th scope="col">Dependente</th>
                <th scope="col">Parentesco</th>
              </tr>
            </thead>
            <tbody>
              {voucher.dependents.map((dependent, index) => (
                <tr key={index}>
                  <td>{dependent.dependente}</td>
                  <td>{dependent.parentesco}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="voucher-dialog__date">Criado em {formatDate(voucher.createdAt)}</p>
        {isVoucherUsed(voucher) && <p className="voucher-card__used">{VOUCHER_USED_TEXT}</p>}
        <QrCode className="voucher-dialog__qr" value={voucher.validator_link} label={`QR Code do voucher ${voucher.code}`} />
        <p className="voucher-dialog__code">
          Código: <strong>{voucher.code}</strong>
        </p>
        {course.rules.trim() !== "" && <SafeHtml className="voucher-dialog__rules" html={course.rules} />}
        {validUntil !== "" && <p className="voucher-dialog__valid">Válido até {validUntil}</p>}
        <div className="voucher-dialog__actions">
          <button type="button" className="button button--primary" onClick={() => window.print()}>
            {printLabel()}
          </button>
          <DocumentDownload path={voucherPdfPath(voucher.code)} fileName={`voucher-${voucher.code}.pdf`} label={VOUCHER_PDF_TEXT} />
          <Link className="button button--secondary" to="/homepage">
            Voltar para a página inicial
          </Link>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Fechar
          </button>
        </div>
      </div>
    </Modal>
  );
}
