// The API's shapes, named as the web app uses them. Every one is generated from the
// contract (docs/openapi.json, built from the Rust route definitions) into
// openapi.gen.ts by `npm run api-types`; nothing here describes a field by hand.

import type { components } from "./openapi.gen";

type Schemas = components["schemas"];

export type Establishment = Schemas["Establishment"];
export type StationConfig = Schemas["SiteConfig"];
export type Station = Schemas["Station"];
export type User = Schemas["User"];
export type UserAddress = Schemas["UserAddress"];
/** What a login answers and what the browser keeps in local storage. */
export type Session = Schemas["LoginResponse"];

// Accounts (docs/api-accounts.md).
/** The station's identifier (e-mail or CPF, per `login_with`) and the password. */
export type LoginCredentials = Schemas["LoginRequest"];
/** Whether a stored token still opens a session, with the user as the server has it now. */
export type TokenValidity = Schemas["TokenValidity"];
/** A single-use token that hands the signed-in member over to another host. */
export type IssuedLoginToken = Schemas["LoginToken"];
/** The first sign-up step's answer, and the login's 401 for an account awaiting its code. */
export type AffiliateInfo = Schemas["Credentials"];
export type CredentialsCheck = Schemas["CredentialsCheck"];
export type ParticipantSignUpRequest = Schemas["ParticipantSignup"];
export type ParticipantSignUpAnswer = Schemas["ParticipantCreated"];
export type SimpleSignUpRequest = Schemas["SimpleSignup"];
export type AdminSignUpRequest = Schemas["AdminSignup"];
/** The admin's new session and the station created. */
export type AdminSignUpAnswer = Schemas["AdminCreated"];
export type MemberGetMember = Schemas["MemberGetMember"];
export type MgmAnswer = Schemas["MgmAnswer"];
/** A picture as the API takes it (company logo, profile image). */
export type ImagePayload = Schemas["ImageUpload"];
export type ParticipantUpdate = Schemas["ParticipantUpdate"];
export type ProfileUpdated = Schemas["ProfileUpdated"];
/** GET /users/{id}'s element: the member with their virtual card (null where not shown). */
export type MemberCardUser = Schemas["MemberCardUser"];
export type MemberCard = Schemas["MemberCard"];
export type PreRegistrationChange = Schemas["PreRegistrationChange"];
export type PreRegistrationSent = Schemas["PreRegistrationSent"];
/** Asks a new activation code for an account (step 2; the masked contacts are not used). */
export type ConfirmationMethodRequest = Schemas["MethodRequest"];
export type ResendRequest = Schemas["ResendRequest"];
/** The answer to any code request, the same whether or not a code went. */
export type ResendAnswer = Schemas["ResendAnswer"];
export type ActivationRequest = Schemas["ActivateRequest"];
/** Public to whoever holds the code, so it names the account and nothing personal. */
export type ActivationAnswer = Schemas["Activated"];
export type PasswordResetRequest = Schemas["LinkRequest"];
export type PasswordUpdate = Schemas["NewPassword"];
export type MessageAnswer = Schemas["RecoveryMessage"];

// Public pages.
/** Whether a member card's owner is valid (activated, not blocked). */
export type UserValidation = Schemas["MemberCardValidation"];
/** A mailing-list link's signed id and hash. */
export type MailingListLink = Schemas["SignedLink"];
export type SharingRequest = Schemas["ShareVisit"];
/** A share link's activity and the link the visitor goes on to. */
export type SharingValidated = Schemas["SharingValidated"];

/** Account types of spec 000 section 9. */
export const USER_TYPE_COMPANY_ADMIN = 1;
export const USER_TYPE_PARTICIPANT = 2;

export type JobState = Schemas["JobState"];
/** States a background job ends in. */
export type FinalJobState = Extract<JobState, "succeeded" | "failed" | "cancelled">;
/** States of a background job that may still change. */
export type PendingJobState = Exclude<JobState, FinalJobState>;
/** A background job as GET /api/jobs/{id} answers it. */
export type Job = Schemas["JobView"];

// The wallet (docs/api-wallet.md). Amounts are integer hundredths of a point (`*_cents`);
// the `points` numbers are the same amounts for display only.
export type WalletBalance = Schemas["WalletBalance"];
export type EarnTransaction = Schemas["EarnTransaction"];
export type UseTransaction = Schemas["UseTransaction"];
export type WalletDebt = Schemas["WalletDebt"];
/** The station's top-up limits, what the member may still top up today, and its bank details. */
export type TopUpSettings = Schemas["TopUpSettings"];
export type TopUpBankDetails = Schemas["TopUpBankDetails"];
/** Money put into the wallet by PIX, card or bank transfer; `points` is reais. */
export type TopUp = Schemas["TopUp"];
export type TopUpMethod = Schemas["TopUpMethod"];
export type TopUpStatus = Schemas["TopUpStatus"];
/** A PIX or card top-up as POST /user-buy-points-transaction takes it. */
export type TopUpRequest = Schemas["BuyPoints"];
/** A bank-transfer request (type 5) as 'Pedidos de transferência' lists it. */
export type TransferRequest = Schemas["TransferRequest"];

// The support console (docs/api-ops.md).
export type StaffRole = Schemas["Role"];
export type OpsMe = Schemas["StaffMe"];
export type OpsQueue = Schemas["QueueOverview"];
export type OpsJobSummary = Schemas["JobSummary"];
export type OpsJobList = Schemas["JobList"];
export type OpsRerunnableCount = Schemas["RerunnableCount"];
export type OpsAuditAction = Schemas["AuditAction"];
export type OpsAuditEntry = Schemas["AuditEntry"];
export type OpsJobDetail = Schemas["StaffJobPage"];
export type OpsAuditPage = Schemas["AuditList"];
export type OpsStation = Schemas["StationOverview"];
/** The filter of the job list, as the list query and the bulk re-run take it. */
export type OpsJobFilter = Schemas["BulkFilter"];
export type OpsBulkRerunAnswer = Schemas["BulkDone"];
/** A top-up as the console shows it: its member, its charge and staff's decision. */
export type OpsTopUp = Schemas["OpsTopUp"];
/** What annulling a participation took back (docs/api-activities.md). */
export type OpsAnnulled = Schemas["Annulled"];

// Activities (docs/api-activities.md).
/** When a member may take part, computed by the server at the time of the call. */
export type Availability = Schemas["Availability"];
export type RedirectLink = Schemas["RedirectLink"];
export type ActionPrerequisite = Schemas["RequiredActivity"];
export type Prerequisites = Schemas["Prerequisites"];
/** What rows, grids and search results need of an activity; amounts in whole points. */
export type ActivityCard = Schemas["ActivityCard"];
export type ActivityContent = Schemas["ActivityContent"];
/** One of an activity's videos: a custom one (a file of ours) or a YouTube or Vimeo one. */
export type ActivityVideo = Schemas["ActionVideo"];
/** The member's view of one of an activity's videos (spec 001 "user_videos item"). */
export type UserVideo = Schemas["UserVideo"];
/** The detail of an activity; `description` and `rules` are HTML sanitised by the server. */
export type Activity = Schemas["Activity"];
export type JourneyActivity = Schemas["JourneyActivity"];
export type Journey = Schemas["Journey"];
export type NowPlaying = Schemas["NowPlaying"];
export type CategoryAction = Schemas["CategoryAction"];
export type Category = Schemas["ParticipantCategory"];
export type RawContentParticipationRequest = Schemas["RawContentVisit"];
export type ParticipationRecorded = Schemas["ParticipationRecorded"];

// Quizzes and surveys (docs/api-activities.md, types 6 to 12). No answer key reaches the
// browser before the member answers: a quiz answer comes back with the server's verdict.
export type Research = Schemas["Research"];
export type ResearchQuestion = Schemas["ResearchQuestion"];
export type ResearchOption = Schemas["ResearchOption"];
/** One question's answer in the member's open attempt, with a quiz's verdict. */
export type ResearchAnswer = Schemas["ResearchAnswer"];
export type AnswerRequest = Schemas["AnswerRequest"];
export type ResearchSubmission = Schemas["ResearchSubmission"];
export type ResearchResult = Schemas["ResearchResult"];
export type QuizCard = Schemas["QuizCard"];
/** A poll's (type 10) counts per option over every submitted attempt. */
export type PollResults = Schemas["PollResults"];

// Trophies.
/** A trophy granted to the member; `createdAt` is when it was granted. */
export type MemberTrophy = Schemas["MemberTrophy"];

// The station calendar.
/** An event of the station's calendar; `day` says what the day is, when it is something. */
export type Schedule = Schemas["Schedule"];
// A station's content (docs/decisions.md, "Station content").
export type NewsCard = Schemas["NewsCard"];
/** A news item; `body` is HTML sanitised by the server. */
export type News = Schemas["News"];
export type DownloadCard = Schemas["DownloadCard"];
/** A download; `body` is HTML sanitised by the server. */
export type Download = Schemas["Download"];
export type TransparencyDocument = Schemas["TransparencyDocument"];

// The fuel campaign (docs/decisions.md, "The fuel campaign").
/** An open campaign; `possuiVoucher` says whether the member holds its voucher. */
export type FuelCampaign = Schemas["FuelCampaign"];
/** A member's fuel voucher: `valorVoucher` in centavos, `status` expired once past `dataValidade`. */
export type FuelVoucher = Schemas["FuelVoucher"];

// Lucky numbers.
/** A giveaway campaign with its publication text and the member's numbers in it. */
export type GiveawayCampaign = Schemas["CampaignNumbers"];
/** A number the member holds, zero-padded, with the participation that gave it. */
export type LuckyNumber = Schemas["LuckyNumber"];

// Invitations (types 1 and 19).
/** What an invitation sent: the addresses taken, the member's link and the invitee's points. */
export type InvitationSent = Schemas["InvitationSent"];
/** Someone who signed up through the member's invite link. */
export type MemberInvitation = Schemas["MemberInvitation"];

// Short links (type 5).
/** The member's short link for a share activity and the share page it redirects to. */
export type ShortLink = Schemas["ShortLink"];

// Commerce (docs/api-commerce.md). Money in integer centavos.
/** A product of a shop activity, with what the caller may still have of it (`limit`). */
export type Product = Schemas["Product"];
/** The commerce side of an activity: delivery locations, payment option, cashback. */
export type ShopAction = Schemas["ShopAction"];
export type DeliveryLocation = Schemas["DeliveryLocation"];
export type CartLineItem = Schemas["CartLine"];
export type ProductQuantity = Schemas["ProductQuantity"];
export type ProductStock = Schemas["ProductStock"];
/** The hold made by confirming the cart: its expiry and its totals before delivery and coupon. */
export type Reservation = Schemas["Reserved"];
export type OrderTotals = Schemas["Totals"];
export type CouponApplied = Schemas["CouponApplied"];
export type PlaceOrderRequest = Schemas["PlaceOrderRequest"];
export type OrderCartAction = Schemas["CartAction"];
export type OrderPaymentForm = Schemas["PaymentForm"];
export type Order = Schemas["Order"];
export type OrderLine = Schemas["OrderLine"];
export type OrderPayment = Schemas["OrderPayment"];
export type GatewayCharge = Schemas["GatewayCharge"];
export type SavedAddress = Schemas["Address"];
export type Dependent = Schemas["Dependent"];
/** A PDF being made: the job to follow at /api/jobs/{job_id} before asking again. */
export type Making = Schemas["Making"];
/** A voucher as its owner and the partner's validator read it; `validated` '0' is unused. */
export type Voucher = Schemas["VoucherView"];
export type OrderCheck = Schemas["OrderCheck"];
export type OrderCheckLine = Schemas["OrderCheckLine"];
export type Donation = Schemas["Donation"];
export type CouponPurchase = Schemas["CouponPurchase"];
export type CreateVouchersRequest = Schemas["CreateVouchers"];
export type SavedCard = Schemas["SavedCard"];
export type InstallmentOption = Schemas["InstallmentOption"];
export type CardToTokenize = Schemas["CardToTokenize"];
export type CardToken = Schemas["CardToken"];
/** A CEP's address as the server's lookup answers it (`POST /get-address-zip-code`). */
export type ZipCodeAddress = Schemas["ZipCodeAddress"];
/** One city of a state (`GET /states/{uf}/cities`): its name and IBGE code. */
export type StateCity = Schemas["StateCity"];

// Plans and subscriptions (docs/api-subscriptions.md). Money in integer centavos.
/** A station's plan; `amount` null is 'A negociar'. */
export type Plan = Schemas["Plan"];
export type PlanBenefit = Schemas["PlanBenefit"];
/** The member's plan (`User.subscription`). */
export type UserSubscription = Schemas["UserSubscription"];
export type SubscriptionCard = Schemas["SubscriptionCard"];
/** One period's charge of 'Minhas assinaturas'. */
export type SubscriptionCharge = Schemas["SubscriptionCharge"];
/** A type 21 activity's recurrence (`action_subscriptions`). */
export type ActionSubscription = Schemas["ActionSubscription"];
/** A saved card or a new card's token with its billing data, as the subscription calls take it. */
export type SubscriptionCardFields = Schemas["CardFields"];
export type PlanPurchaseRequest = Schemas["PurchaseForm"];
export type PlanCancelRequest = Schemas["CancelRequest"];
export type ProductSubscriptionRequest = Schemas["SubscribeProductForm"];
/** A member's type 21 subscription. */
export type SubscribedAction = Schemas["SubscribedAction"];
export type EnterpriseContactRequest = Schemas["EnterpriseContact"];
/** A new card to keep (`POST /user-credit-cards`); the number goes to the tokeniser, never here. */
export type NewSavedCard = Schemas["NewCardForm"];

// Support (docs/api-support.md).
/** The contact form ('Fale conosco'), as `POST /enviar-suporte` takes it. */
export type SupportRequest = Schemas["SupportRequest"];
export type SupportSent = Schemas["SupportSent"];
/** A support message as the console shows it, and a page of them. */
export type OpsSupportMessage = Schemas["OpsSupportMessage"];
export type OpsSupportMessages = Schemas["OpsSupportMessages"];
// The visitors' landing page (docs/decisions.md "The station's landing page").
export type Landing = Schemas["Landing"];
export type LandingSlide = Schemas["LandingSlide"];
export type LandingSection = Schemas["LandingSection"];
export type LandingItem = Schemas["LandingItem"];
export type LandingLinkType = Schemas["LandingLinkType"];
export type AboutPage = Schemas["AboutPage"];

// Member services (docs/api-services.md): a desk's pages, cases, appointments and news.
/** GET /api/services/{desk}: the pages' content (an absent desk row: empty lists and texts). */
export type ServicePage = Schemas["ServicePage"];
/** A legal case; `valorCausa` in centavos (null: unknown); `publicadoPortal` true is 'Causas coletivas'. */
export type LegalProcess = Schemas["LegalProcess"];
/** An accounting case: a legal one without `titulo` and `publicadoPortal`. */
export type AccountingProcess = Schemas["AccountingProcess"];
/** An appointment's state, on the member's pages and in the console. */
export type AppointmentStatus = Schemas["AppointmentStatus"];
export type ServiceAppointment = Schemas["ServiceAppointment"];
/** A legal or accounting appointment request: the preferred weekday and what it is about. */
export type ServiceAppointmentRequest = Schemas["AppointmentRequest"];
/** A health appointment request: as the others, with the phone (digits or masked). */
export type HealthAppointmentRequest = Schemas["HealthAppointmentRequest"];
/** The 201 of an appointment request. */
export type ServiceRequestCreated = Schemas["ServiceRequestCreated"];
export type CancelLegalAppointment = Schemas["CancelAppointment"];
export type AppointmentCancelled = Schemas["AppointmentCancelled"];
/** One of GET /api/{desk}/news?page=&tagId=: 9 a page, newest first. */
export type ServiceNewsItem = Schemas["ServiceNewsItem"];
/** One of GET /political: the station's published themes, in their order. */
export type PoliticalTheme = Schemas["PoliticalTheme"];
/** A theme suggested to the political desk (POST /political); its 201 is a ServiceRequestCreated. */
export type PoliticalSuggestion = Schemas["SuggestionRequest"];

// The service desk in the console (docs/api-services.md, "The desk in the console").
/** GET /api/ops/desk/me (403 when the account reaches no desk). */
export type DeskMe = Schemas["DeskMe"];
/** One desk a staff member reaches, and whether they may act on it (a viewer only reads). */
export type DeskOpen = Schemas["DeskOpen"];
export type DeskAppointment = Schemas["DeskAppointment"];
export type DeskAppointmentPage = Schemas["DeskAppointments"];
export type DeskOffice = Schemas["DeskOffice"];
/** Confirms or re-schedules an appointment: RFC 3339 with the station's offset, and the office. */
export type DeskConfirmation = Schemas["ConfirmBody"];
/** A health appointment's co-payment in centavos, half of it credited to the member as cashback. */
export type DeskCopayInput = Schemas["CopayBody"];
/** A case (the spec's processo) a legal or accounting desk follows for a CPF. */
export type DeskCase = Schemas["DeskCase"];
/** What the desk records or edits (POST .../cases, PUT /api/ops/desk/cases/{id}). */
export type DeskCaseInput = Schemas["CaseBody"];
export type DeskCasePage = Schemas["DeskCases"];
export type DeskSuggestion = Schemas["DeskSuggestion"];
export type DeskSuggestionPage = Schemas["DeskSuggestions"];
/** A news item published for desks' pages (POST /api/ops/stations/{id}/news), and its 201. */
export type DeskNewsInput = Schemas["NewsBody"];
export type DeskNewsCreated = Schemas["Created"];
/** A desk's CSV import (cases or appointments) with its counts and rejected rows. */
export type ServiceImport = Schemas["ServiceImport"];
export type ImportQueued = Schemas["ImportQueued"];
export type RejectedRow = Schemas["RejectedRow"];
