//! The demo catalogue's quizzes and surveys: one research per activity of types 6 to 12,
//! with questions a union's club would ask. Seeded once per activity (an activity that
//! already has its research is left as it is).

use std::collections::HashMap;

use sqlx::PgPool;

use domain::activities::research::{self, NewFeedback, NewOption, NewQuestion, NewResearch};

/// A question: its text, type and options (`true`: a right one; the number: the feedback
/// it points to, for the personality test).
type Q = (
    &'static str,
    i16,
    &'static [(&'static str, bool, Option<usize>)],
);

struct DemoResearch {
    activity: &'static str,
    synopsis: &'static str,
    questions: &'static [Q],
    /// Messages and explanations of the quiz's questions, in order.
    explanations: &'static [(&'static str, &'static str)],
    feedbacks: &'static [(i16, i16, &'static str)],
}

const RESEARCHES: &[DemoResearch] = &[
    DemoResearch {
        activity: "Quiz: conheça seus direitos",
        synopsis: "Três perguntas sobre férias, 13º salário e jornada de trabalho. Acerte \
                   metade na primeira tentativa e ganhe os pontos.",
        questions: &[
            (
                "Depois de quantos meses de trabalho o empregado tem direito a férias?",
                1,
                &[
                    ("6 meses", false, None),
                    ("12 meses", true, None),
                    ("18 meses", false, None),
                ],
            ),
            (
                "Até quando deve ser paga a segunda parcela do 13º salário?",
                1,
                &[
                    ("30 de novembro", false, None),
                    ("20 de dezembro", true, None),
                    ("31 de janeiro", false, None),
                ],
            ),
            (
                "Qual é a jornada semanal máxima prevista na Constituição?",
                1,
                &[
                    ("40 horas", false, None),
                    ("44 horas", true, None),
                    ("48 horas", false, None),
                ],
            ),
        ],
        explanations: &[
            (
                "Isso mesmo! São 12 meses de período aquisitivo.",
                "Após cada período de 12 meses de trabalho, o empregado tem direito a 30 dias \
                 de férias (CLT, art. 130).",
            ),
            (
                "Certo! O prazo é 20 de dezembro.",
                "A primeira parcela vai até 30 de novembro e a segunda até 20 de dezembro \
                 (Lei 4.749/1965).",
            ),
            (
                "Correto! São 44 horas por semana.",
                "A Constituição fixa 8 horas diárias e 44 semanais (art. 7º, XIII).",
            ),
        ],
        feedbacks: &[
            (
                0,
                49,
                "<p>Quase lá! Revise a cartilha de direitos no site do clube.</p>",
            ),
            (50, 100, "<p>Muito bem! Você conhece os seus direitos.</p>"),
        ],
    },
    DemoResearch {
        activity: "Pesquisa de satisfação 2026",
        synopsis: "Três etapas rápidas sobre o seu ano no clube.",
        questions: &[
            (
                "Como você avalia o clube em 2026?",
                1,
                &[
                    ("Ótimo", false, None),
                    ("Bom", false, None),
                    ("Regular", false, None),
                    ("Ruim", false, None),
                ],
            ),
            (
                "Quais benefícios você usou este ano?",
                2,
                &[
                    ("Convênios de saúde", false, None),
                    ("Assessoria jurídica", false, None),
                    ("Eventos e palestras", false, None),
                    ("Loja do clube", false, None),
                ],
            ),
            ("O que podemos melhorar em 2027?", 3, &[]),
        ],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Desafio final da trilha do conhecimento",
        synopsis: "Quatro perguntas de múltipla escolha sobre a trilha.",
        questions: &[
            (
                "Onde você vê o seu saldo de pontos?",
                1,
                &[
                    ("No cabeçalho do site", true, None),
                    ("No regulamento", false, None),
                ],
            ),
            (
                "Quais destas atividades dão pontos?",
                2,
                &[
                    ("Responder quizzes", true, None),
                    ("Assistir às playlists", true, None),
                    ("Trocar a senha", false, None),
                ],
            ),
            (
                "Quando o cashback é liberado?",
                1,
                &[
                    ("Na data de liberação do clube", true, None),
                    ("Na hora da compra", false, None),
                ],
            ),
            (
                "O que acontece com uma participação fraudulenta?",
                1,
                &[("É cancelada", true, None), ("Vale em dobro", false, None)],
            ),
        ],
        explanations: &[],
        feedbacks: &[
            (0, 49, "<p>Você pode refazer a trilha e tentar de novo.</p>"),
            (50, 100, "<p>Parabéns, você concluiu a trilha!</p>"),
        ],
    },
    DemoResearch {
        activity: "Pesquisa de contato: fale com a gente",
        synopsis: "Conte como prefere receber as novidades do clube.",
        questions: &[
            (
                "Por onde você prefere receber as novidades?",
                4,
                &[
                    ("E-mail", false, None),
                    ("WhatsApp", false, None),
                    ("SMS", false, None),
                ],
            ),
            ("Deixe um recado para a diretoria", 3, &[]),
        ],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Enquete: melhor horário para os eventos",
        synopsis: "Marque todos os horários em que você pode participar.",
        questions: &[(
            "Em quais horários você pode participar dos eventos?",
            5,
            &[
                ("Manhã", false, None),
                ("Tarde", false, None),
                ("Noite", false, None),
            ],
        )],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Enquete: festa de fim de ano",
        synopsis: "A votação foi encerrada.",
        questions: &[(
            "Qual deve ser o tema da festa de fim de ano?",
            5,
            &[
                ("Anos 80", false, None),
                ("Luau", false, None),
                ("Festa junina fora de época", false, None),
            ],
        )],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Enquete: tema da próxima palestra",
        synopsis: "Escolha um tema e veja o resultado parcial.",
        questions: &[(
            "Qual tema você quer na palestra de dezembro?",
            1,
            &[
                ("Educação financeira", false, None),
                ("Saúde mental no trabalho", false, None),
                ("Aposentadoria", false, None),
            ],
        )],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Quiz: saúde no trabalho",
        synopsis: "Três perguntas sobre ergonomia, pausas e hidratação.",
        questions: &[
            (
                "A cada quanto tempo é bom fazer uma pausa no computador?",
                1,
                &[
                    ("A cada 50 minutos", true, None),
                    ("Só no almoço", false, None),
                ],
            ),
            (
                "Quais hábitos ajudam a postura?",
                2,
                &[
                    ("Tela na altura dos olhos", true, None),
                    ("Pés apoiados no chão", true, None),
                    ("Cadeira sem encosto", false, None),
                ],
            ),
            (
                "Quanta água um adulto deve beber por dia, em média?",
                1,
                &[
                    ("Cerca de 2 litros", true, None),
                    ("Meio litro", false, None),
                ],
            ),
        ],
        explanations: &[],
        feedbacks: &[],
    },
    DemoResearch {
        activity: "Teste: qual é o seu perfil de investidor?",
        synopsis: "Três perguntas para descobrir o seu perfil.",
        questions: &[
            (
                "Se um investimento cair 10% em um mês, você...",
                1,
                &[
                    ("Resgata tudo", false, Some(0)),
                    ("Espera recuperar", false, Some(1)),
                    ("Aproveita para investir mais", false, Some(2)),
                ],
            ),
            (
                "Por quanto tempo você pretende deixar o dinheiro investido?",
                1,
                &[
                    ("Menos de 1 ano", false, Some(0)),
                    ("De 1 a 5 anos", false, Some(1)),
                    ("Mais de 5 anos", false, Some(2)),
                ],
            ),
            (
                "O que é mais importante para você?",
                1,
                &[
                    ("Segurança", false, Some(0)),
                    ("Equilíbrio", false, Some(1)),
                    ("Rentabilidade", false, Some(2)),
                ],
            ),
        ],
        explanations: &[],
        feedbacks: &[
            (
                0,
                100,
                "<p>Você é <strong>conservador</strong>: prefere segurança.</p>",
            ),
            (
                0,
                100,
                "<p>Você é <strong>moderado</strong>: busca equilíbrio.</p>",
            ),
            (
                0,
                100,
                "<p>Você é <strong>arrojado</strong>: aceita riscos por mais retorno.</p>",
            ),
        ],
    },
];

/// Seeds the research of each demo activity of `ids` that has none yet.
pub async fn seed(db: &PgPool, ids: &HashMap<String, i64>) -> anyhow::Result<()> {
    for demo in RESEARCHES {
        let Some(&action_id) = ids.get(demo.activity) else {
            continue;
        };
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM researches WHERE action_id = $1)")
                .bind(action_id)
                .fetch_one(db)
                .await?;
        if exists {
            continue;
        }
        let questions = demo
            .questions
            .iter()
            .enumerate()
            .map(|(index, (question, type_id, options))| {
                let explained = demo.explanations.get(index);
                NewQuestion {
                    question: (*question).into(),
                    type_id: *type_id,
                    options: options
                        .iter()
                        .map(|(label, correct, feedback)| NewOption {
                            label: (*label).into(),
                            correct: *correct,
                            feedback: *feedback,
                        })
                        .collect(),
                    message_for_correct: explained.map(|(message, _)| (*message).into()),
                    message_for_incorrect: explained
                        .map(|_| "Não é essa. Tente outra resposta!".into()),
                    explanation: explained.map(|(_, explanation)| (*explanation).into()),
                }
            })
            .collect();
        let feedbacks = demo
            .feedbacks
            .iter()
            .map(|(range_from, range_to, feedback)| NewFeedback {
                range_from: *range_from,
                range_to: *range_to,
                feedback: (*feedback).into(),
                feedback_lottie_id: None,
            })
            .collect();
        let mut tx = db.begin().await?;
        research::create(
            &mut tx,
            &NewResearch {
                action_id,
                name: demo.activity.into(),
                synopsis: demo.synopsis.into(),
                questions,
                feedbacks,
            },
        )
        .await?;
        tx.commit().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quiz_question_has_a_right_answer_and_every_choice_options() {
        for demo in RESEARCHES {
            for (question, type_id, options) in demo.questions {
                if [1, 2, 4, 5].contains(type_id) {
                    assert!(!options.is_empty(), "{question}");
                }
            }
        }
        let quiz = &RESEARCHES[0];
        assert_eq!(quiz.explanations.len(), quiz.questions.len());
        assert!(
            quiz.questions.iter().all(|(_, _, options)| options
                .iter()
                .filter(|(_, right, _)| *right)
                .count()
                == 1)
        );
    }
}
