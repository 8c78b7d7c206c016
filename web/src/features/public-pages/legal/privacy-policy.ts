// The privacy texts (spec 000 sections 2 and 9): a generic policy built from the station's
// name and social name, and the bank-specific notice of station 171.
import {
  contactChannel,
  LEGAL_TEXTS_UPDATED_AT,
  ownerName,
  ownerWithCnpj,
  type LegalDocument,
} from "@/features/public-pages/legal/legal-document";
import type { Station } from "@/types/api";

/** The station whose owner is a bank and shows its own privacy notice. */
export const BANK_PRIVACY_STATION_ID = 171;

/** Minimum age to consent to data processing without a guardian (spec 000 section 9). */
const CONSENT_AGE_WITHOUT_GUARDIAN = 16;

/** Access logs are kept six months (spec 000 section 9; Marco Civil da Internet, art. 15). */
const ACCESS_LOG_RETENTION = "6 (seis) meses";

const ACCESS_LOG_RETENTION_TEXT = `Os registros de acesso (endereço IP, data e hora de cada acesso) são guardados por ${ACCESS_LOG_RETENTION}, sob sigilo e em ambiente controlado, como exige o Marco Civil da Internet (Lei nº 12.965/2014, art. 15).`;

const MINORS_TEXT = `O Programa é destinado a maiores de 18 anos. A idade mínima para consentir com o tratamento de dados pessoais sem a assistência de um dos pais ou responsável legal é de ${CONSENT_AGE_WITHOUT_GUARDIAN} anos; se soubermos que tratamos dados de alguém abaixo dessa idade sem esse consentimento, os dados serão excluídos.`;

const RIGHTS_TEXT =
  "Você pode, a qualquer momento e de graça: confirmar se tratamos os seus dados e acessá-los; corrigir dados incompletos, inexatos ou desatualizados; pedir a anonimização, o bloqueio ou a eliminação de dados desnecessários ou tratados em desconformidade com a lei; pedir a portabilidade; saber com quem os compartilhamos; revogar um consentimento e ser informado das consequências de não o dar (LGPD, art. 18).";

function genericPolicy(station: Station): LegalDocument {
  const owner = ownerName(station);
  return {
    title: "Política de privacidade",
    updatedAt: LEGAL_TEXTS_UPDATED_AT,
    intro: [
      `Esta Política explica como ${ownerWithCnpj(station)}, controladora dos dados pessoais tratados no programa ${station.name}, coleta, usa, compartilha e protege os seus dados, em conformidade com a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018, "LGPD").`,
    ],
    sections: [
      {
        title: "1. Dados que coletamos",
        paragraphs: [
          "Dados de cadastro: nome, CPF, e-mail, telefone, data de nascimento, estado, cidade, endereço e foto de perfil, quando informados.",
          "Dados de participação: ações realizadas, recompensas, movimentações da carteira, pedidos, cupons, vouchers e assinaturas.",
          "Dados de navegação: endereço IP, data e hora de acesso, tipo de dispositivo e navegador, e as preferências guardadas no seu navegador (como o aceite do aviso de cookies).",
        ],
      },
      {
        title: "2. Para que usamos os seus dados",
        paragraphs: [
          "Para criar e manter a sua conta, registrar a sua participação nas ações, conceder recompensas, processar pedidos e pagamentos, prestar atendimento, enviar comunicações sobre o Programa (das quais você pode se descadastrar a qualquer momento), prevenir fraudes, garantir a segurança do ambiente e cumprir obrigações legais.",
        ],
      },
      {
        title: "3. Bases legais",
        paragraphs: [
          "Tratamos dados para executar o contrato que você aceita ao participar (os Termos de Uso), para cumprir obrigações legais e regulatórias, com base no nosso legítimo interesse, sempre respeitando os seus direitos, e, quando necessário, com o seu consentimento, que pode ser revogado a qualquer momento.",
        ],
      },
      {
        title: "4. Crianças e adolescentes",
        paragraphs: [MINORS_TEXT],
      },
      {
        title: "5. Compartilhamento",
        paragraphs: [
          "Compartilhamos dados apenas quando necessário: com prestadores de serviço que nos apoiam (hospedagem, envio de e-mails, meios de pagamento), com parceiros das ações e ofertas de que você escolhe participar, e com autoridades, quando a lei ou uma ordem judicial o exigir.",
          `${owner} não vende dados pessoais.`,
        ],
      },
      {
        title: "6. Cookies e armazenamento local",
        paragraphs: [
          "Usamos cookies e o armazenamento local do navegador para manter você conectado, lembrar as suas preferências e respostas (como o aviso de cookies e a confirmação de idade) e entender o uso do site. Você pode apagá-los nas configurações do navegador, mas algumas funções podem deixar de funcionar.",
        ],
      },
      {
        title: "7. Por quanto tempo guardamos os dados",
        paragraphs: [
          ACCESS_LOG_RETENTION_TEXT,
          "Os demais dados são mantidos enquanto a sua conta estiver ativa e, depois disso, apenas pelo tempo necessário para cumprir obrigações legais ou exercer direitos em processos.",
        ],
      },
      {
        title: "8. Segurança",
        paragraphs: [
          "Adotamos medidas técnicas e administrativas para proteger os seus dados, como conexões criptografadas, senhas guardadas de forma irreversível e acesso restrito a quem precisa deles. Nenhum sistema é totalmente seguro; em caso de incidente relevante, avisaremos você e a Autoridade Nacional de Proteção de Dados (ANPD).",
        ],
      },
      {
        title: "9. Os seus direitos",
        paragraphs: [
          RIGHTS_TEXT,
          "Você também pode apresentar reclamação à Autoridade Nacional de Proteção de Dados (ANPD).",
        ],
      },
      {
        title: "10. Alterações e contato",
        paragraphs: [
          "Esta Política pode ser atualizada; a versão em vigor fica sempre nesta página, com a data da última atualização.",
          `Para exercer os seus direitos ou tirar dúvidas, fale conosco ${contactChannel(station)}.`,
        ],
      },
    ],
  };
}

function bankPrivacyNotice(station: Station): LegalDocument {
  const bank = ownerName(station);
  return {
    title: "Aviso de privacidade",
    updatedAt: LEGAL_TEXTS_UPDATED_AT,
    intro: [
      `Este Aviso descreve como ${ownerWithCnpj(station)} (o "Banco") trata os dados pessoais de quem participa do programa de relacionamento ${station.name}. Ele complementa a política de privacidade geral do Banco, disponível nos seus canais oficiais, e segue a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018, "LGPD").`,
    ],
    sections: [
      {
        title: "1. Quem trata os seus dados",
        paragraphs: [
          `${bank} é o controlador dos dados tratados no Programa. A plataforma que hospeda o Programa atua como operadora, seguindo as instruções do Banco.`,
        ],
      },
      {
        title: "2. Dados tratados no Programa",
        paragraphs: [
          "Dados de cadastro (nome, CPF, e-mail, telefone, data de nascimento e endereço), dados de participação (ações, recompensas, resgates e pedidos) e dados de navegação (endereço IP, data e hora de acesso, dispositivo e navegador).",
          "Para verificar se você pode participar de uma ação, o Programa pode consultar se você é cliente do Banco e o segmento do seu relacionamento.",
        ],
      },
      {
        title: "3. Sigilo bancário",
        paragraphs: [
          "Informações protegidas por sigilo bancário (Lei Complementar nº 105/2001), como saldos, movimentações, aplicações e operações de crédito, não são compartilhadas com o Programa nem com os seus parceiros. O Programa recebe apenas o necessário para verificar a sua elegibilidade e conceder recompensas.",
        ],
      },
      {
        title: "4. Finalidades e bases legais",
        paragraphs: [
          "Usamos os dados para administrar a sua participação, conceder e resgatar recompensas, prestar atendimento, enviar comunicações do Programa, prevenir fraudes e cumprir obrigações legais e regulatórias, inclusive as do Banco Central do Brasil. As bases legais são a execução do contrato, o cumprimento de obrigação legal ou regulatória, o legítimo interesse e, quando exigido, o seu consentimento.",
        ],
      },
      {
        title: "5. Compartilhamento",
        paragraphs: [
          "Os dados podem ser compartilhados com empresas do conglomerado do Banco, com prestadores de serviço contratados, com parceiros das ofertas que você escolher e com autoridades e órgãos reguladores, quando a lei o exigir. O Banco não vende dados pessoais.",
        ],
      },
      {
        title: "6. Idade mínima",
        paragraphs: [MINORS_TEXT],
      },
      {
        title: "7. Retenção",
        paragraphs: [
          ACCESS_LOG_RETENTION_TEXT,
          "Os demais dados são mantidos enquanto você participar do Programa e, depois, pelo prazo exigido pela regulação bancária ou necessário para o exercício de direitos.",
        ],
      },
      {
        title: "8. Os seus direitos",
        paragraphs: [
          RIGHTS_TEXT,
          `Para exercê-los, fale com o Encarregado pelo Tratamento de Dados Pessoais do Banco pelos canais oficiais de atendimento ou ${contactChannel(station)}.`,
        ],
      },
    ],
  };
}

export function privacyPolicyFor(station: Station): LegalDocument {
  return station.id === BANK_PRIVACY_STATION_ID ? bankPrivacyNotice(station) : genericPolicy(station);
}
