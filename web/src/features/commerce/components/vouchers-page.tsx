// /homepage/vouchers, 'Meus vouchers' (spec 002 sections 2 and 4): a grid of the member's
// vouchers, skeletons while loading; a used one reads 'Este voucher já foi utilizado!', an
// unused one its creation and valid-until dates. A click opens the voucher dialog, whose
// code (QR encoder, sanitiser) loads on the first click.
import { lazy, Suspense, useState } from "react";
import { useVouchers } from "@/features/commerce/api/vouchers";
import { VOUCHER_USED_TEXT } from "@/features/commerce/messages";
import { isVoucherUsed } from "@/features/commerce/vouchers";
import { formatDate } from "@/lib/dates";
import type { Voucher } from "@/types/api";
import "./shop-screens.css";
import "./vouchers.css";

export const VOUCHERS_TITLE = "Meus vouchers";
export const NO_VOUCHERS_TEXT = "Você ainda não possui vouchers";
const SKELETON_CARDS = 6;

const VoucherDialog = lazy(async () => ({ default: (await import("@/features/commerce/components/voucher-dialog")).VoucherDialog }));

function VoucherCard({ voucher, onOpen }: { voucher: Voucher; onOpen: () => void }) {
  const used = isVoucherUsed(voucher);
  const validUntil = formatDate(voucher.presential_course.date);
  return (
    <li className={used ? "voucher-card voucher-card--used" : "voucher-card"}>
      <button type="button" className="voucher-card__button" onClick={onOpen}>
        <span className="voucher-card__title">{voucher.presential_course.name}</span>
        <span className="voucher-card__product">{voucher.product}</span>
        {used ? (
          <span className="voucher-card__used">{VOUCHER_USED_TEXT}</span>
        ) : (
          <>
            <span className="voucher-card__date">Criado em {formatDate(voucher.createdAt)}</span>
            {validUntil !== "" && <span className="voucher-card__date">Válido até {validUntil}</span>}
          </>
        )}
      </button>
    </li>
  );
}

export function VouchersPage() {
  const vouchers = useVouchers();
  const [open, setOpen] = useState<Voucher | null>(null);
  return (
    <section className="shop-screen">
      <h1 className="shop-screen__title">{VOUCHERS_TITLE}</h1>
      {vouchers.isPending ? (
        <ul className="voucher-grid" aria-busy="true" aria-label="Carregando vouchers">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <li key={index} className="voucher-card voucher-card--skeleton" />
          ))}
        </ul>
      ) : vouchers.isError ? (
        <div className="shop-screen__error">
          <p>Não foi possível carregar os seus vouchers.</p>
          <button type="button" className="button button--secondary" onClick={() => void vouchers.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : vouchers.data.length === 0 ? (
        <p className="shop-screen__empty">{NO_VOUCHERS_TEXT}</p>
      ) : (
        <ul className="voucher-grid">
          {vouchers.data.map((voucher) => (
            <VoucherCard key={voucher.id} voucher={voucher} onOpen={() => setOpen(voucher)} />
          ))}
        </ul>
      )}
      {open !== null && (
        <Suspense fallback={<p className="shop-screen__loading">Carregando voucher…</p>}>
          <VoucherDialog voucher={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </section>
  );
}
