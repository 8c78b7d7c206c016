//! Scoring, as pure functions of the key and the stored answers: no database, so every
//! rule of the spec's "Survey" section is unit-tested (research/tests.rs).

use super::*;

/// The score of an attempt, from its stored answers and the key.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Score {
    pub(super) question_count: i32,
    pub(super) answered_count: i32,
    pub(super) correct_count: i32,
    pub(super) correct_answer_percentage: Option<f64>,
    pub(super) answer_percentage: f64,
    pub(super) won: Option<bool>,
    /// Whether every question that must be answered is.
    pub(super) complete: bool,
    pub(super) questions: Vec<QuestionResult>,
    /// The options chosen, in question order (the personality test's feedback).
    pub(super) chosen: Vec<i64>,
}

/// Scores `answers` against `keyed` for a research of type `kind` (spec 001 "Survey"): a
/// quiz counts the questions right at the first try, a survey the answers right as they
/// stand; the percentage is right answers over questions, null when no question has a
/// right answer. A quiz and a personality test need every question answered, a survey its
/// required ones.
pub(super) fn score(kind: ActivityType, keyed: &[KeyedQuestion], answers: &[Stored]) -> Score {
    let quiz = kind == ActivityType::Quiz;
    let by_question: HashMap<i64, &Stored> = answers
        .iter()
        .map(|answer| (answer.question_id, answer))
        .collect();
    let mut result = Score {
        question_count: keyed.len() as i32,
        answered_count: 0,
        correct_count: 0,
        correct_answer_percentage: None,
        answer_percentage: 0.0,
        won: None,
        complete: true,
        questions: Vec::with_capacity(keyed.len()),
        chosen: Vec::new(),
    };
    let mut keyed_any = false;
    for question in keyed {
        let answer = by_question
            .get(&question.id)
            .filter(|answer| answer.answered());
        if answer.is_some() {
            result.answered_count += 1;
        } else if quiz || kind == ActivityType::PersonalityTest || question.kind().required() {
            result.complete = false;
        }
        let has_key = !question.right_options().is_empty();
        keyed_any |= has_key;
        let correct = match answer {
            Some(answer) if quiz => answer.first_try_correct,
            Some(answer) => question.judge(&answer.option_ids),
            None if has_key => Some(false),
            None => None,
        };
        if correct == Some(true) {
            result.correct_count += 1;
        }
        if let Some(answer) = answer {
            result.chosen.extend(&answer.option_ids);
        }
        result.questions.push(QuestionResult {
            question_id: question.id,
            correct,
        });
    }
    let share = |count: i32| {
        if result.question_count == 0 {
            0.0
        } else {
            f64::from(count) / f64::from(result.question_count)
        }
    };
    result.answer_percentage = share(result.answered_count);
    if keyed_any {
        let percentage = share(result.correct_count);
        result.correct_answer_percentage = Some(percentage);
        if quiz {
            result.won = Some(percentage >= PASS_MARK);
        }
    }
    result
}

/// The feedback a result shows: for a personality test, the one its chosen options point
/// to most (the first of a tie, in the order chosen); for others, the one whose range of
/// percentages holds the score (the right answers' share, else the answered share).
pub(super) fn feedback_of(
    kind: ActivityType,
    keyed: &[KeyedQuestion],
    score: &Score,
    ranges: &[(i64, i16, i16)],
) -> Option<i64> {
    if kind == ActivityType::PersonalityTest {
        let pointed: HashMap<i64, Option<i64>> = keyed
            .iter()
            .flat_map(|question| &question.options)
            .map(|option| (option.id, option.quiz_feedback_id))
            .collect();
        let mut counts: Vec<(i64, usize)> = Vec::new();
        for feedback in score
            .chosen
            .iter()
            .filter_map(|id| pointed.get(id).copied().flatten())
        {
            match counts.iter_mut().find(|(id, _)| *id == feedback) {
                Some((_, count)) => *count += 1,
                None => counts.push((feedback, 1)),
            }
        }
        let most = counts.iter().map(|(_, count)| *count).max()?;
        return counts
            .iter()
            .find(|(_, count)| *count == most)
            .map(|(id, _)| *id);
    }
    let share = score
        .correct_answer_percentage
        .unwrap_or(score.answer_percentage);
    let percent = (share * 100.0).round() as i16;
    ranges
        .iter()
        .find(|(_, from, to)| (*from..=*to).contains(&percent))
        .map(|(id, _, _)| *id)
}
