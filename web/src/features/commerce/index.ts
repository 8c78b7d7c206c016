// The commerce feature's public surface: the app and other features import only this (eslint.config.js).
// Its building blocks take props and fetch nothing; the shop's screens compose them.
// The browser's card tokeniser, shared with the subscriptions' card forms.
export { CardTokenizerError, useCardTokenizer } from "./api/card-tokenizer";
// The card fields shared by the checkout, the subscriptions' forms and the wallet's top-up.
export { NewCardFields, SAVE_CARD_LABEL, SavedCardOptions, type NewCardValues } from "./components/card-entry-fields";
export { CartLine, unitPriceCents, type CartLineProduct } from "./components/cart-line";
export { CopyButton, COPIED_TEXT } from "./components/copy-button";
export { Countdown } from "./components/countdown";
export { CouponDialog, COUPON_DIALOG_TITLE } from "./components/coupon-dialog";
export { EmptyCart, EMPTY_CART_TEXT } from "./components/empty-cart";
export { PaymentFailedDialog, paymentFailedText } from "./components/payment-failed-dialog";
export { PixPanel, VERIFY_PAYMENT_TEXT } from "./components/pix-panel";
export { SIMULATE_PIX_TEXT } from "./components/placed-step";
// The member's saved cards and the sandbox's simulated PIX, shared with the wallet's top-up.
export { useSandboxPayments, useSavedCards, useSimulatePixPayment } from "./api/payments";
export { TotalsBox, type CartTotals } from "./components/totals-box";
export { formatBrl, formatPoints } from "./money";
export * as paymentForm from "./payment-form";
export { useExpiryCountdown, formatMinutesSeconds } from "./use-expiry-countdown";
export * as shopMessages from "./messages";
// The PDF download button (following the job that makes the file) and the QR code, shared
// with the member card.
export { DocumentDownload } from "./components/document-download";
export { QrCode } from "./components/qr-code";
