// The terms of use (spec 000 section 2): one text built from the station's data, with the
// sections the spec lists. One station has a text of its own (TERMS_BY_STATION_ID).
import {
  contactChannel,
  LEGAL_TEXTS_UPDATED_AT,
  ownerWithCnpj,
  type LegalDocument,
  type LegalSection,
} from "@/features/public-pages/legal/legal-document";
import type { Station } from "@/types/api";

/** How a participant proves who they are: the standard terms ask for a CPF. */
type Identification = "cpf" | "no-cpf";

function accountSection(identification: Identification): LegalSection {
  const eligibility =
    identification === "cpf"
      ? "Para participar, é preciso ser maior de 18 (dezoito) anos, possuir CPF (Cadastro de Pessoas Físicas) regular e criar uma conta de acesso com dados verdadeiros, completos e atualizados. Cada CPF pode estar vinculado a uma única conta."
      : "Para participar, é preciso ser maior de 18 (dezoito) anos e criar uma conta de acesso com nome, telefone e os demais dados pedidos no cadastro, verdadeiros, completos e atualizados. Neste Programa não é pedido CPF; cada pessoa pode ter uma única conta.";
  return {
    title: "2. Conta de acesso",
    paragraphs: [
      eligibility,
      "A conta é pessoal e intransferível. Não compartilhe o seu login e a sua senha: você responde por tudo o que for feito com eles. Se suspeitar de uso indevido, altere a senha e avise a Organizadora imediatamente.",
      "A Organizadora pode pedir a confirmação dos seus dados e suspender ou encerrar contas com informações falsas, uso indevido, fraude ou violação destes Termos. Nesses casos, as recompensas e o saldo obtidos de forma irregular serão cancelados.",
      "Você pode pedir o encerramento da sua conta a qualquer momento pelos canais de atendimento.",
    ],
  };
}

function buildTerms(station: Station, identification: Identification): LegalDocument {
  const currency = station.currency_name;
  return {
    title: "Termos de uso",
    updatedAt: LEGAL_TEXTS_UPDATED_AT,
    intro: [
      `Estes Termos de Uso regulam a participação no programa ${station.name} (o "Programa"), oferecido por ${ownerWithCnpj(station)} (a "Organizadora").`,
      "Ao criar a sua conta ou usar o Programa, você declara que leu, entendeu e aceita estes Termos e a Política de Privacidade. Se não concordar com eles, não utilize o Programa.",
    ],
    sections: [
      {
        title: "1. O que é o Programa",
        paragraphs: [
          `O ${station.name} é um programa de relacionamento e fidelidade: os participantes realizam ações, acumulam recompensas em ${currency} e créditos em uma carteira digital, e os utilizam conforme estes Termos e as condições de cada ação.`,
          "A participação é gratuita, pessoal e voluntária.",
        ],
      },
      accountSection(identification),
      {
        title: "3. Afiliados",
        paragraphs: [
          "Algumas ações e benefícios podem ser exclusivos de afiliados, isto é, de pessoas vinculadas à Organizadora (como associados, filiados, colaboradores ou clientes), conforme os cadastros que ela mantém. A condição de afiliado é verificada pela Organizadora e pode ser revista a qualquer tempo.",
          "Quem deixa de ser afiliado perde o acesso às ações e benefícios exclusivos, mantidas as recompensas já confirmadas.",
          "Ao convidar outras pessoas pelo seu link de indicação, você pode receber recompensas quando o convidado se cadastrar, nas condições informadas na ação de indicação. Convites enviados sem o consentimento de quem os recebe, ou cadastros criados apenas para obter recompensas, são proibidos.",
        ],
      },
      {
        title: "4. Recompensas",
        paragraphs: [
          `As recompensas são concedidas em ${currency} ou em créditos na carteira, conforme as regras de cada ação, e ficam registradas no seu extrato.`,
          "As recompensas não têm valor monetário fora do Programa, não podem ser vendidas, cedidas ou transferidas e só podem ser usadas nas formas previstas no Programa.",
          "Recompensas podem ter prazo de validade, informado na ação que as concedeu; vencido o prazo, deixam de estar disponíveis. Recompensas concedidas por erro, falha técnica ou fraude podem ser estornadas.",
        ],
      },
      {
        title: "5. Ações",
        paragraphs: [
          "Ações são as atividades propostas no Programa, como questionários, pesquisas, cursos, doações, compartilhamentos, compras de cupons e pedidos de produtos. Cada ação informa o seu período, as condições de participação, o limite de participações e a recompensa.",
          "A recompensa de uma ação é concedida depois de confirmada a participação, o que pode depender de validação pela Organizadora ou por parceiros.",
          "A Organizadora pode alterar, suspender ou encerrar ações, respeitando as participações já confirmadas.",
        ],
      },
      {
        title: "6. Carteira",
        paragraphs: [
          "A carteira é o espaço da sua conta que mostra o seu saldo e o histórico de movimentações: créditos, usos, resgates, estornos e expirações.",
          "O saldo da carteira é pessoal e intransferível e não constitui depósito, conta de pagamento, investimento ou qualquer outro produto financeiro.",
        ],
      },
      {
        title: "7. Crédito na carteira",
        paragraphs: [
          "Créditos entram na carteira como retorno (cashback) de compras ou como recompensa de ações, conforme as regras de cada oferta.",
          "Um crédito pode ficar pendente até a confirmação da operação que o originou, como o pagamento de um pedido, e só fica disponível depois dela. Se a operação for cancelada ou estornada, o crédito correspondente também será.",
        ],
      },
      {
        title: "8. Resgate de saldo",
        paragraphs: [
          "O saldo disponível pode ser usado, total ou parcialmente, para pagar produtos, cupons e serviços na loja do Programa e nas demais formas de resgate oferecidas, nas condições informadas no momento do resgate.",
          "O resgate é definitivo depois de confirmado. O saldo não pode ser trocado por dinheiro, salvo quando a lei o exigir ou quando o Programa oferecer expressamente essa opção.",
        ],
      },
      {
        title: "9. Duração do Programa",
        paragraphs: [
          "O Programa vigora por prazo indeterminado. A Organizadora pode encerrá-lo a qualquer tempo, com aviso aos participantes de pelo menos 30 (trinta) dias, durante os quais o saldo disponível poderá ser resgatado.",
          "Estes Termos podem ser atualizados. A versão em vigor fica sempre nesta página, com a data da última atualização; mudanças relevantes serão comunicadas aos participantes, e continuar usando o Programa depois delas significa aceitá-las.",
        ],
      },
      {
        title: "10. Ambiente digital",
        paragraphs: [
          "O Programa é oferecido por este site e, quando disponível, por aplicativo. A Organizadora se esforça para mantê-los disponíveis e seguros, mas podem ocorrer interrupções para manutenção ou por motivos alheios ao seu controle.",
          "É proibido usar robôs, scripts ou outros meios automatizados, explorar falhas, criar contas falsas ou interferir de qualquer forma no funcionamento do Programa.",
          "Os seus dados pessoais são tratados conforme a Política de Privacidade, disponível em /politica-de-privacidade.",
        ],
      },
      {
        title: "11. Direitos da Organizadora",
        paragraphs: [
          "Marcas, nomes, logotipos, textos, imagens e demais conteúdos do Programa pertencem à Organizadora ou aos seus parceiros e licenciantes e não podem ser usados sem autorização.",
          "A Organizadora pode alterar regras, recompensas, parceiros e funcionalidades do Programa, cancelar recompensas e saldos obtidos irregularmente e suspender ou encerrar contas que violem estes Termos, sem prejuízo das medidas legais cabíveis.",
        ],
      },
      {
        title: "12. Limites de responsabilidade",
        paragraphs: [
          "A Organizadora não responde por danos causados pelo uso da conta pelo participante ou por terceiros a quem ele deu acesso, por falhas de conexão ou dos dispositivos do participante, nem por informações incorretas fornecidas no cadastro.",
          "Produtos e serviços de parceiros são de responsabilidade dos respectivos parceiros, inclusive quanto a entrega, qualidade e garantia.",
          "Nada nestes Termos limita os direitos que o Código de Defesa do Consumidor ou outra lei garantem ao participante.",
        ],
      },
      {
        title: "13. Contato",
        paragraphs: [
          `Dúvidas sobre estes Termos podem ser enviadas ${contactChannel(station)}. Estes Termos são regidos pelas leis da República Federativa do Brasil.`,
        ],
      },
    ],
  };
}

/**
 * The station with a text of its own: 187, the no-CPF sign-up station (spec 000 section 1),
 * whose participants have no CPF, so its terms cannot ask for one.
 */
export const TERMS_BY_STATION_ID: Readonly<Record<number, (station: Station) => LegalDocument>> = {
  187: (station) => buildTerms(station, "no-cpf"),
};

export function termsOfUseFor(station: Station): LegalDocument {
  return TERMS_BY_STATION_ID[station.id]?.(station) ?? buildTerms(station, "cpf");
}
